CREATE TABLE "signature_activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"signature_id" integer NOT NULL,
	"action" text NOT NULL,
	"from_actor_id" integer,
	"to_actor_id" integer,
	"user_id" integer,
	"ip" text,
	"user_agent" text,
	"details" jsonb,
	"date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_actors" (
	"id" serial PRIMARY KEY NOT NULL,
	"signature_id" integer NOT NULL,
	"user_id" integer,
	"type" text NOT NULL,
	"position" integer NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"locale" text,
	"phone" text,
	"signature_level" text,
	"status" text DEFAULT 'initiated' NOT NULL,
	"token_nonce" text,
	"notified_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	"done_at" timestamp with time zone,
	"refuse_reason" text,
	"refuse_at" timestamp with time zone,
	"signature_kind" text,
	"signature_image" text,
	"signature_text" text,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"last_reminded_at" timestamp with time zone,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"code_sent_at" timestamp with time zone,
	"code_tries" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"signature_id" integer NOT NULL,
	"file_id" integer,
	"blob_id" text NOT NULL,
	"folder_id" integer NOT NULL,
	"file_signed_id" integer,
	"name" text NOT NULL,
	"initial_position" text,
	"pages" jsonb NOT NULL,
	"sha256_before" text,
	"sha256_after" text,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"actor_id" integer NOT NULL,
	"type" text NOT NULL,
	"page" integer NOT NULL,
	"x" double precision NOT NULL,
	"y" double precision NOT NULL,
	"width" double precision NOT NULL,
	"height" double precision NOT NULL,
	"optional" boolean DEFAULT false NOT NULL,
	"question" text,
	"default_value" text,
	"max_length" integer,
	"size" double precision,
	"reason" text,
	"value" text,
	"filled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signature_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"mode" text DEFAULT 'standard' NOT NULL,
	"ordered" boolean DEFAULT false NOT NULL,
	"is_masses" boolean DEFAULT false NOT NULL,
	"level" text DEFAULT 'electronic_signature' NOT NULL,
	"reminder_day" integer,
	"reminder_interval" integer,
	"reminder_max" integer,
	"expiration_date" timestamp with time zone,
	"send_copy" boolean DEFAULT false NOT NULL,
	"is_template" boolean DEFAULT false NOT NULL,
	"activated_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signature_activities" ADD CONSTRAINT "signature_activities_signature_id_signature_requests_id_fk" FOREIGN KEY ("signature_id") REFERENCES "public"."signature_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_actors" ADD CONSTRAINT "signature_actors_signature_id_signature_requests_id_fk" FOREIGN KEY ("signature_id") REFERENCES "public"."signature_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_actors" ADD CONSTRAINT "signature_actors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_documents" ADD CONSTRAINT "signature_documents_signature_id_signature_requests_id_fk" FOREIGN KEY ("signature_id") REFERENCES "public"."signature_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_documents" ADD CONSTRAINT "signature_documents_file_id_file_versions_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_documents" ADD CONSTRAINT "signature_documents_file_signed_id_file_versions_id_fk" FOREIGN KEY ("file_signed_id") REFERENCES "public"."file_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_fields" ADD CONSTRAINT "signature_fields_document_id_signature_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."signature_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_fields" ADD CONSTRAINT "signature_fields_actor_id_signature_actors_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."signature_actors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_parent_id_signature_requests_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."signature_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signature_activities_signature_id_idx" ON "signature_activities" USING btree ("signature_id","id");--> statement-breakpoint
CREATE INDEX "signature_actors_signature_id_idx" ON "signature_actors" USING btree ("signature_id","position");--> statement-breakpoint
CREATE INDEX "signature_actors_user_id_idx" ON "signature_actors" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "signature_documents_signature_id_idx" ON "signature_documents" USING btree ("signature_id");--> statement-breakpoint
CREATE INDEX "signature_fields_document_id_idx" ON "signature_fields" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "signature_fields_actor_id_idx" ON "signature_fields" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "signature_requests_user_id_idx" ON "signature_requests" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "signature_requests_parent_id_idx" ON "signature_requests" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "signature_requests_ongoing_idx" ON "signature_requests" USING btree ("id") WHERE "signature_requests"."status" = 'ongoing';