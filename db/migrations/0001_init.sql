CREATE SEQUENCE "public"."principal_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1000 CACHE 1;--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY DEFAULT nextval('principal_id_seq') NOT NULL,
	"login" text NOT NULL,
	"password_hash" text,
	"firstname" text DEFAULT '' NOT NULL,
	"lastname" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"organization" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"language" text DEFAULT 'auto' NOT NULL,
	"quota" bigint,
	"expire" timestamp with time zone,
	"role" smallint DEFAULT 1 NOT NULL,
	"can_edit_options" boolean DEFAULT true NOT NULL,
	"ldap" boolean DEFAULT false NOT NULL,
	"private_root_id" integer,
	"picture_blob_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "group_managers" (
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "group_managers_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "group_members" (
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "group_members_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" integer PRIMARY KEY DEFAULT nextval('principal_id_seq') NOT NULL,
	"login" text NOT NULL,
	"ldap" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text DEFAULT 'api' NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_token_hash_key" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "folders" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_key" text GENERATED ALWAYS AS (lower(normalize(name, NFC))) STORED NOT NULL,
	"parent_id" integer,
	"path" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"owner_id" integer NOT NULL,
	"space" text DEFAULT 'company' NOT NULL,
	"quota" bigint DEFAULT -1 NOT NULL,
	"purge_frequency" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"trash_id" integer
);
--> statement-breakpoint
CREATE TABLE "trash_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder_id" integer,
	"file_id" integer,
	"version_ids" integer[],
	"owner_id" integer NOT NULL,
	"deleted_by" integer,
	"original_parent_id" integer,
	"name" text DEFAULT '' NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"id" text PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"md5" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"version_id" integer,
	"type" integer NOT NULL,
	"actor_id" integer,
	"date" timestamp with time zone DEFAULT now() NOT NULL,
	"env" jsonb,
	"geo" jsonb,
	"data" jsonb
);
--> statement-breakpoint
CREATE TABLE "file_locks" (
	"file_id" integer PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"version_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"type" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"file_id" integer NOT NULL,
	"number" integer NOT NULL,
	"blob_id" text,
	"size" bigint DEFAULT 0 NOT NULL,
	"md5" text NOT NULL,
	"mime" text DEFAULT 'application/octet-stream' NOT NULL,
	"creator_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"meta" jsonb,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" serial PRIMARY KEY NOT NULL,
	"guid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"folder_id" integer NOT NULL,
	"name" text NOT NULL,
	"name_key" text GENERATED ALWAYS AS (lower(normalize(name, NFC))) STORED NOT NULL,
	"owner_id" integer NOT NULL,
	"current_version_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"trash_id" integer,
	CONSTRAINT "files_guid_key" UNIQUE("guid")
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer NOT NULL,
	"folder_id" integer NOT NULL,
	"name" text NOT NULL,
	"size" bigint,
	"chunks" integer,
	"chunk_size" bigint,
	"expected_md5" text,
	"never_overwrite" boolean DEFAULT false NOT NULL,
	"context" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rights" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder_id" integer NOT NULL,
	"target_id" integer NOT NULL,
	"browse" boolean DEFAULT false NOT NULL,
	"read" boolean DEFAULT false NOT NULL,
	"download" boolean DEFAULT false NOT NULL,
	"write" boolean DEFAULT false NOT NULL,
	"edit" boolean DEFAULT false NOT NULL,
	"delete" boolean DEFAULT false NOT NULL,
	"share" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"user_name" text DEFAULT 'guest' NOT NULL,
	"date" timestamp with time zone DEFAULT now() NOT NULL,
	"message" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"type" text NOT NULL,
	"statut" text DEFAULT 'ADMLLOG_OK' NOT NULL,
	"object_id" text,
	"object_type" text,
	"object" text
);
--> statement-breakpoint
CREATE TABLE "platform_config" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "emails" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"object" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"html" text,
	"from" text,
	"to" text,
	"bcc" text,
	"owner_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_send" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "group_managers" ADD CONSTRAINT "group_managers_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_managers" ADD CONSTRAINT "group_managers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folders" ADD CONSTRAINT "folders_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trash_items" ADD CONSTRAINT "trash_items_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trash_items" ADD CONSTRAINT "trash_items_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_locks" ADD CONSTRAINT "file_locks_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_locks" ADD CONSTRAINT "file_locks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_tokens" ADD CONSTRAINT "file_tokens_version_id_file_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."file_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_tokens" ADD CONSTRAINT "file_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_versions" ADD CONSTRAINT "file_versions_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_versions" ADD CONSTRAINT "file_versions_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rights" ADD CONSTRAINT "rights_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_live_idx" ON "users" USING btree (lower("login")) WHERE "users"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "groups_login_idx" ON "groups" USING btree (lower("login"));--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "folders_parent_id_idx" ON "folders" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "folders_path_idx" ON "folders" USING gin ("path");--> statement-breakpoint
CREATE INDEX "folders_trash_id_idx" ON "folders" USING btree ("trash_id");--> statement-breakpoint
CREATE UNIQUE INDEX "folders_parent_id_name_idx" ON "folders" USING btree ("parent_id","name_key") WHERE "folders"."deleted_at" IS NULL AND "folders"."parent_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "trash_items_owner_id_idx" ON "trash_items" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "trash_items_deleted_at_idx" ON "trash_items" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX "events_target_idx" ON "events" USING btree ("target_type","target_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "file_versions_file_id_number_idx" ON "file_versions" USING btree ("file_id","number");--> statement-breakpoint
CREATE INDEX "file_versions_creator_id_idx" ON "file_versions" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "file_versions_md5_idx" ON "file_versions" USING btree ("file_id","md5");--> statement-breakpoint
CREATE INDEX "file_versions_created_at_idx" ON "file_versions" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "files_folder_id_name_idx" ON "files" USING btree ("folder_id","name_key") WHERE "files"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "files_folder_id_idx" ON "files" USING btree ("folder_id");--> statement-breakpoint
CREATE INDEX "files_name_key_trgm_idx" ON "files" USING gin ("name_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "files_trash_id_idx" ON "files" USING btree ("trash_id");--> statement-breakpoint
CREATE INDEX "uploads_updated_at_idx" ON "uploads" USING btree ("updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rights_folder_id_target_id_idx" ON "rights" USING btree ("folder_id","target_id");--> statement-breakpoint
CREATE INDEX "rights_target_id_idx" ON "rights" USING btree ("target_id");--> statement-breakpoint
CREATE INDEX "logs_date_idx" ON "logs" USING btree ("date");--> statement-breakpoint
CREATE INDEX "logs_user_id_idx" ON "logs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "emails_type_idx" ON "emails" USING btree ("type");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_dedupe_key_idx" ON "jobs" USING btree ("dedupe_key") WHERE "jobs"."status" = 'pending';