CREATE TABLE "archive_items" (
	"archive_id" integer NOT NULL,
	"item_type" text NOT NULL,
	"item_id" integer NOT NULL,
	CONSTRAINT "archive_items_archive_id_item_type_item_id_pk" PRIMARY KEY("archive_id","item_type","item_id")
);
--> statement-breakpoint
CREATE TABLE "archive_versions" (
	"id" integer PRIMARY KEY NOT NULL,
	"archive_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"number" integer NOT NULL,
	"source_blob_id" text,
	"archive_blob_id" text,
	"compression" text NOT NULL,
	"size" bigint NOT NULL,
	"stored_size" bigint NOT NULL,
	"md5" text NOT NULL,
	"mime" text NOT NULL,
	"creator_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"modified_at" timestamp with time zone NOT NULL,
	"meta" jsonb,
	"restored_blob_id" text
);
--> statement-breakpoint
CREATE TABLE "archives" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"object_id" integer NOT NULL,
	"object_version_id" integer,
	"name" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"owner_id" integer,
	"original_parent_id" integer,
	"path_name" text DEFAULT '/' NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"stored_size" bigint DEFAULT 0 NOT NULL,
	"nb_files" integer DEFAULT 0 NOT NULL,
	"nb_folders" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"restore_parent_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "archive_items" ADD CONSTRAINT "archive_items_archive_id_archives_id_fk" FOREIGN KEY ("archive_id") REFERENCES "public"."archives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "archive_versions" ADD CONSTRAINT "archive_versions_archive_id_archives_id_fk" FOREIGN KEY ("archive_id") REFERENCES "public"."archives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "archives" ADD CONSTRAINT "archives_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "archive_items_item_idx" ON "archive_items" USING btree ("item_type","item_id");--> statement-breakpoint
CREATE INDEX "archive_versions_archive_id_idx" ON "archive_versions" USING btree ("archive_id");--> statement-breakpoint
CREATE INDEX "archive_versions_file_id_idx" ON "archive_versions" USING btree ("file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "archives_object_idx" ON "archives" USING btree ("type","object_id");--> statement-breakpoint
CREATE INDEX "archives_owner_id_idx" ON "archives" USING btree ("owner_id");