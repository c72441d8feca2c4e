CREATE TABLE "alert_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"recipient_id" integer NOT NULL,
	"alert_id" integer NOT NULL,
	"folder_id" integer NOT NULL,
	"kind" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" integer,
	"object_name" text NOT NULL,
	"actor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder_id" integer NOT NULL,
	"target_id" integer NOT NULL,
	"email_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"expiration_date" timestamp with time zone,
	"owner_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"email" text NOT NULL,
	"folder_id" integer NOT NULL,
	"rights" smallint NOT NULL,
	"expiration" timestamp with time zone,
	"source_id" integer NOT NULL,
	"target_id" integer,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invitations_key_key" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "connection_options" (
	"target_id" integer PRIMARY KEY NOT NULL,
	"ips" text[],
	"days" smallint DEFAULT 255 NOT NULL,
	"hour_start" text,
	"hour_end" text,
	"can_netsync" boolean DEFAULT true NOT NULL,
	"oauth_blocked" smallint DEFAULT 0 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "version_previews" (
	"version_id" integer PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"file_type" text,
	"thumb_blob_id" text,
	"thumb_mime" text,
	"page_count" integer,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "version_texts" (
	"version_id" integer PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', left(content, 1000000))) STORED,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_access_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"link_type" text NOT NULL,
	"link_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"link_type" text NOT NULL,
	"link_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_accesses" (
	"id" serial PRIMARY KEY NOT NULL,
	"share_id" integer NOT NULL,
	"kind" text NOT NULL,
	"file_id" integer,
	"version_id" integer,
	"visitor" text NOT NULL,
	"recipient_id" integer,
	"ip" text,
	"env" jsonb,
	"geo" jsonb,
	"date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_email_recipients" (
	"id" serial PRIMARY KEY NOT NULL,
	"share_email_id" integer NOT NULL,
	"email" text NOT NULL,
	"key" text NOT NULL,
	CONSTRAINT "share_email_recipients_key_key" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "share_emails" (
	"id" serial PRIMARY KEY NOT NULL,
	"share_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	"object" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_roots" (
	"id" serial PRIMARY KEY NOT NULL,
	"share_id" integer NOT NULL,
	"entity_type" smallint NOT NULL,
	"object_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shares" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"flags" integer DEFAULT 4 NOT NULL,
	"name" text,
	"expiration_date" timestamp with time zone,
	"owner_id" integer NOT NULL,
	"password_hash" text,
	"phone" text,
	"consumed_at" timestamp with time zone,
	"legacy" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shares_key_key" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "sms_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"body" text NOT NULL,
	"provider" text DEFAULT 'outbox' NOT NULL,
	"sent_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ulink_deposits" (
	"id" serial PRIMARY KEY NOT NULL,
	"ulink_id" integer NOT NULL,
	"file_id" integer,
	"version_id" integer,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"ip" text,
	"date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ulink_emails" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"folder_id" integer,
	"object" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"alert" integer DEFAULT 0 NOT NULL,
	"expiration_date" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ulinks" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"folder_id" integer,
	"flags" integer DEFAULT 0 NOT NULL,
	"name" text,
	"expiration_date" timestamp with time zone,
	"owner_id" integer NOT NULL,
	"password_hash" text,
	"phone" text,
	"ulink_email_id" integer,
	"recipient_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ulinks_key_key" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "group_managers" ADD COLUMN "id" serial NOT NULL;--> statement-breakpoint
ALTER TABLE "group_managers" ADD COLUMN "manage_users" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "group_managers" ADD COLUMN "manage_security" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "group_managers" ADD COLUMN "manage_alerts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_changes" ADD CONSTRAINT "alert_changes_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_source_id_users_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_target_id_users_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_previews" ADD CONSTRAINT "version_previews_version_id_file_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."file_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_texts" ADD CONSTRAINT "version_texts_version_id_file_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."file_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_accesses" ADD CONSTRAINT "share_accesses_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_email_recipients" ADD CONSTRAINT "share_email_recipients_share_email_id_share_emails_id_fk" FOREIGN KEY ("share_email_id") REFERENCES "public"."share_emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_emails" ADD CONSTRAINT "share_emails_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_emails" ADD CONSTRAINT "share_emails_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_roots" ADD CONSTRAINT "share_roots_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ulink_deposits" ADD CONSTRAINT "ulink_deposits_ulink_id_ulinks_id_fk" FOREIGN KEY ("ulink_id") REFERENCES "public"."ulinks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ulink_emails" ADD CONSTRAINT "ulink_emails_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ulink_emails" ADD CONSTRAINT "ulink_emails_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ulinks" ADD CONSTRAINT "ulinks_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ulinks" ADD CONSTRAINT "ulinks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_changes_recipient_idx" ON "alert_changes" USING btree ("recipient_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_folder_id_target_id_idx" ON "alerts" USING btree ("folder_id","target_id");--> statement-breakpoint
CREATE INDEX "alerts_target_id_idx" ON "alerts" USING btree ("target_id");--> statement-breakpoint
CREATE INDEX "invitations_folder_id_idx" ON "invitations" USING btree ("folder_id");--> statement-breakpoint
CREATE INDEX "invitations_source_id_idx" ON "invitations" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "version_texts_tsv_idx" ON "version_texts" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "link_access_tokens_link_idx" ON "link_access_tokens" USING btree ("link_type","link_id");--> statement-breakpoint
CREATE INDEX "link_codes_link_idx" ON "link_codes" USING btree ("link_type","link_id");--> statement-breakpoint
CREATE INDEX "share_accesses_share_id_idx" ON "share_accesses" USING btree ("share_id","date");--> statement-breakpoint
CREATE INDEX "share_email_recipients_email_idx" ON "share_email_recipients" USING btree ("share_email_id");--> statement-breakpoint
CREATE INDEX "share_roots_share_id_idx" ON "share_roots" USING btree ("share_id");--> statement-breakpoint
CREATE INDEX "share_roots_object_idx" ON "share_roots" USING btree ("entity_type","object_id");--> statement-breakpoint
CREATE INDEX "shares_owner_id_idx" ON "shares" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "ulink_deposits_ulink_id_idx" ON "ulink_deposits" USING btree ("ulink_id");--> statement-breakpoint
CREATE INDEX "ulinks_owner_id_idx" ON "ulinks" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "ulinks_folder_id_idx" ON "ulinks" USING btree ("folder_id");--> statement-breakpoint
ALTER TABLE "group_managers" ADD CONSTRAINT "group_managers_id_key" UNIQUE("id");