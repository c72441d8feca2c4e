CREATE TABLE "identity_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer,
	"group_id" integer,
	"external_id" text NOT NULL,
	"dn" text,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identity_links_kind_check" CHECK (("identity_links"."kind" = 'user' AND "identity_links"."user_id" IS NOT NULL AND "identity_links"."group_id" IS NULL) OR ("identity_links"."kind" = 'group' AND "identity_links"."group_id" IS NOT NULL AND "identity_links"."user_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "identity_providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"enable" boolean DEFAULT true NOT NULL,
	"is_authn" boolean DEFAULT true NOT NULL,
	"is_directory" boolean DEFAULT false NOT NULL,
	"is_sso" boolean DEFAULT false NOT NULL,
	"matching" smallint DEFAULT 0 NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secrets" text,
	"last_sync_at" timestamp with time zone,
	"last_sync_status" text,
	"last_sync_result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity_links" ADD CONSTRAINT "identity_links_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_links" ADD CONSTRAINT "identity_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_links" ADD CONSTRAINT "identity_links_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identity_links_external_idx" ON "identity_links" USING btree ("provider_id","kind","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_links_user_idx" ON "identity_links" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_links_group_idx" ON "identity_links" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "identity_links_dn_idx" ON "identity_links" USING btree ("provider_id",lower("dn"));--> statement-breakpoint
CREATE UNIQUE INDEX "identity_providers_name_idx" ON "identity_providers" USING btree (lower("name"));