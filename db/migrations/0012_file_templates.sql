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
ALTER TABLE "file_templates" ADD CONSTRAINT "file_templates_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_templates" ADD CONSTRAINT "file_templates_source_version_id_file_versions_id_fk" FOREIGN KEY ("source_version_id") REFERENCES "public"."file_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_templates" ADD CONSTRAINT "file_templates_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_tokens" ADD CONSTRAINT "template_tokens_template_id_file_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."file_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_tokens" ADD CONSTRAINT "template_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_templates_folder_id_idx" ON "file_templates" USING btree ("folder_id");--> statement-breakpoint
CREATE INDEX "file_templates_blob_id_idx" ON "file_templates" USING btree ("blob_id");--> statement-breakpoint
CREATE INDEX "template_tokens_user_id_idx" ON "template_tokens" USING btree ("user_id");