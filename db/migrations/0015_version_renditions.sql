CREATE TABLE "version_renditions" (
	"version_id" integer PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"blob_id" text NOT NULL,
	"mime" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "version_renditions" ADD CONSTRAINT "version_renditions_version_id_file_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."file_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "version_renditions_blob_id_idx" ON "version_renditions" USING btree ("blob_id");