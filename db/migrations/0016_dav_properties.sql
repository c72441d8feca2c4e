CREATE TABLE "dav_properties" (
	"id" serial PRIMARY KEY NOT NULL,
	"file_id" integer,
	"folder_id" integer,
	"namespace" text NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dav_properties" ADD CONSTRAINT "dav_properties_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dav_properties" ADD CONSTRAINT "dav_properties_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dav_properties_file_idx" ON "dav_properties" USING btree ("file_id","namespace","name");--> statement-breakpoint
CREATE UNIQUE INDEX "dav_properties_folder_idx" ON "dav_properties" USING btree ("folder_id","namespace","name");