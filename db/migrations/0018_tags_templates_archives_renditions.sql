CREATE TABLE "tag_activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"tag_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"actor_id" integer,
	"data" jsonb,
	"date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_key" text GENERATED ALWAYS AS (lower(normalize(name, NFC))) STORED NOT NULL,
	"color" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_links" (
	"tag_id" integer NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tag_links_tag_id_target_type_target_id_pk" PRIMARY KEY("tag_id","target_type","target_id")
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_key" text GENERATED ALWAYS AS (lower(normalize(name, NFC))) STORED NOT NULL,
	"category_id" integer,
	"owner_id" integer NOT NULL,
	"private" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"guid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"folder_id" integer,
	"blob_id" text NOT NULL,
	"size" bigint NOT NULL,
	"md5" text NOT NULL,
	"mime" text NOT NULL,
	"source_version_id" integer,
	"owner_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_templates_guid_key" UNIQUE("guid")
);
--> statement-breakpoint
CREATE TABLE "template_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"template_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"type" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
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
CREATE TABLE "version_renditions" (
	"version_id" integer PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"blob_id" text NOT NULL,
	"mime" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tag_activities" ADD CONSTRAINT "tag_activities_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_links" ADD CONSTRAINT "tag_links_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_links" ADD CONSTRAINT "tag_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_category_id_tag_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."tag_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_templates" ADD CONSTRAINT "file_templates_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_templates" ADD CONSTRAINT "file_templates_source_version_id_file_versions_id_fk" FOREIGN KEY ("source_version_id") REFERENCES "public"."file_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_templates" ADD CONSTRAINT "file_templates_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_tokens" ADD CONSTRAINT "template_tokens_template_id_file_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."file_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_tokens" ADD CONSTRAINT "template_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "archive_items" ADD CONSTRAINT "archive_items_archive_id_archives_id_fk" FOREIGN KEY ("archive_id") REFERENCES "public"."archives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "archive_versions" ADD CONSTRAINT "archive_versions_archive_id_archives_id_fk" FOREIGN KEY ("archive_id") REFERENCES "public"."archives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "archives" ADD CONSTRAINT "archives_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_renditions" ADD CONSTRAINT "version_renditions_version_id_file_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."file_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tag_activities_tag_id_idx" ON "tag_activities" USING btree ("tag_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "tag_categories_name_key_idx" ON "tag_categories" USING btree ("name_key");--> statement-breakpoint
CREATE INDEX "tag_links_target_idx" ON "tag_links" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_public_name_key_idx" ON "tags" USING btree ("name_key") WHERE NOT "tags"."private";--> statement-breakpoint
CREATE UNIQUE INDEX "tags_private_name_key_idx" ON "tags" USING btree ("owner_id","name_key") WHERE "tags"."private";--> statement-breakpoint
CREATE INDEX "tags_category_id_idx" ON "tags" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "file_templates_folder_id_idx" ON "file_templates" USING btree ("folder_id");--> statement-breakpoint
CREATE INDEX "file_templates_blob_id_idx" ON "file_templates" USING btree ("blob_id");--> statement-breakpoint
CREATE INDEX "template_tokens_user_id_idx" ON "template_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "archive_items_item_idx" ON "archive_items" USING btree ("item_type","item_id");--> statement-breakpoint
CREATE INDEX "archive_versions_archive_id_idx" ON "archive_versions" USING btree ("archive_id");--> statement-breakpoint
CREATE INDEX "archive_versions_file_id_idx" ON "archive_versions" USING btree ("file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "archives_object_idx" ON "archives" USING btree ("type","object_id");--> statement-breakpoint
CREATE INDEX "archives_owner_id_idx" ON "archives" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "version_renditions_blob_id_idx" ON "version_renditions" USING btree ("blob_id");