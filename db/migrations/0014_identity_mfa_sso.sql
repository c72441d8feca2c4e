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
CREATE TABLE "mfa_challenges" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text,
	"webauthn_challenge" text,
	"code_hash" text,
	"code_sent_at" timestamp with time zone,
	"phone" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mfa_challenges_token_hash_key" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "mfa_recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mfa_totp_steps" (
	"user_id" integer NOT NULL,
	"step" bigint NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mfa_totp_steps_pkey" PRIMARY KEY("user_id","step")
);
--> statement-breakpoint
CREATE TABLE "mfa_webauthn_credentials" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "mfa_webauthn_credentials_credential_id_key" UNIQUE("credential_id")
);
--> statement-breakpoint
CREATE TABLE "user_mfa" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"otp_secret" text,
	"otp_enabled_at" timestamp with time zone,
	"otp_pending_secret" text,
	"otp_pending_at" timestamp with time zone,
	"sms_phone" text,
	"sms_enabled_at" timestamp with time zone,
	"webauthn_user_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_flows" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"protocol" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"state_hash" text,
	"request_id" text,
	"ticket_hash" text,
	"binding_hash" text,
	"code_verifier" text,
	"nonce" text,
	"next" text DEFAULT '/' NOT NULL,
	"identity" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_replays" (
	"provider_id" integer NOT NULL,
	"assertion_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sso_replays_pkey" PRIMARY KEY("provider_id","assertion_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mfa_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_links" ADD CONSTRAINT "identity_links_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_links" ADD CONSTRAINT "identity_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_links" ADD CONSTRAINT "identity_links_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mfa_challenges" ADD CONSTRAINT "mfa_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mfa_recovery_codes" ADD CONSTRAINT "mfa_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mfa_totp_steps" ADD CONSTRAINT "mfa_totp_steps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mfa_webauthn_credentials" ADD CONSTRAINT "mfa_webauthn_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_mfa" ADD CONSTRAINT "user_mfa_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_flows" ADD CONSTRAINT "sso_flows_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_replays" ADD CONSTRAINT "sso_replays_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identity_links_external_idx" ON "identity_links" USING btree ("provider_id","kind","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_links_user_idx" ON "identity_links" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_links_group_idx" ON "identity_links" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "identity_links_dn_idx" ON "identity_links" USING btree ("provider_id",lower("dn"));--> statement-breakpoint
CREATE UNIQUE INDEX "identity_providers_name_idx" ON "identity_providers" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "mfa_challenges_user_id_idx" ON "mfa_challenges" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE INDEX "mfa_challenges_expires_at_idx" ON "mfa_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "mfa_recovery_codes_user_id_idx" ON "mfa_recovery_codes" USING btree ("user_id","code_hash");--> statement-breakpoint
CREATE INDEX "mfa_webauthn_credentials_user_id_idx" ON "mfa_webauthn_credentials" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_flows_state_hash_idx" ON "sso_flows" USING btree ("state_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_flows_request_id_idx" ON "sso_flows" USING btree ("provider_id","request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_flows_ticket_hash_idx" ON "sso_flows" USING btree ("ticket_hash");--> statement-breakpoint
CREATE INDEX "sso_flows_expires_at_idx" ON "sso_flows" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sso_replays_expires_at_idx" ON "sso_replays" USING btree ("expires_at");