CREATE TABLE "oauth2_access_tokens" (
	"session_id" bigint PRIMARY KEY NOT NULL,
	"grant_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth2_apps" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"editor" text,
	"editor_url" text,
	"type" smallint NOT NULL,
	"kind" text DEFAULT 'web' NOT NULL,
	"scope" text NOT NULL,
	"callback_uris" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth2_apps_client_id_key" UNIQUE("client_id")
);
--> statement-breakpoint
CREATE TABLE "oauth2_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"redirect_uri" text NOT NULL,
	"scope" text NOT NULL,
	"code_challenge" text NOT NULL,
	"code_challenge_method" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"grant_id" bigint
);
--> statement-breakpoint
CREATE TABLE "oauth2_grants" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"handle" text NOT NULL,
	"app_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"scope" text NOT NULL,
	"flow" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth2_grants_handle_key" UNIQUE("handle")
);
--> statement-breakpoint
CREATE TABLE "oauth2_refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"grant_id" bigint NOT NULL,
	"session_id" bigint,
	"expires_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "oauth2_access_tokens" ADD CONSTRAINT "oauth2_access_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth2_access_tokens" ADD CONSTRAINT "oauth2_access_tokens_grant_id_oauth2_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth2_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth2_apps" ADD CONSTRAINT "oauth2_apps_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth2_codes" ADD CONSTRAINT "oauth2_codes_app_id_oauth2_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."oauth2_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth2_codes" ADD CONSTRAINT "oauth2_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth2_codes" ADD CONSTRAINT "oauth2_codes_grant_id_oauth2_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth2_grants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth2_grants" ADD CONSTRAINT "oauth2_grants_app_id_oauth2_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."oauth2_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth2_grants" ADD CONSTRAINT "oauth2_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth2_refresh_tokens" ADD CONSTRAINT "oauth2_refresh_tokens_grant_id_oauth2_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth2_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth2_access_tokens_grant_id_idx" ON "oauth2_access_tokens" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth2_apps_created_by_idx" ON "oauth2_apps" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "oauth2_grants_app_id_idx" ON "oauth2_grants" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "oauth2_grants_user_id_idx" ON "oauth2_grants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "oauth2_refresh_tokens_grant_id_idx" ON "oauth2_refresh_tokens" USING btree ("grant_id");