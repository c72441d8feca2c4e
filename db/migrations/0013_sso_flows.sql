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
ALTER TABLE "sso_flows" ADD CONSTRAINT "sso_flows_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_replays" ADD CONSTRAINT "sso_replays_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_flows_state_hash_idx" ON "sso_flows" USING btree ("state_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_flows_request_id_idx" ON "sso_flows" USING btree ("provider_id","request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_flows_ticket_hash_idx" ON "sso_flows" USING btree ("ticket_hash");--> statement-breakpoint
CREATE INDEX "sso_flows_expires_at_idx" ON "sso_flows" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sso_replays_expires_at_idx" ON "sso_replays" USING btree ("expires_at");