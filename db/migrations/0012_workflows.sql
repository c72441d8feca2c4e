CREATE TABLE "workflow_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"instance_id" integer NOT NULL,
	"participant_id" integer,
	"user_id" integer,
	"action" text NOT NULL,
	"comment" text,
	"ip" text,
	"user_agent" text,
	"date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_instances" (
	"id" serial PRIMARY KEY NOT NULL,
	"flux" smallint NOT NULL,
	"owner_id" integer NOT NULL,
	"state" text NOT NULL,
	"properties" jsonb NOT NULL,
	"comment" text,
	"send_copy" boolean DEFAULT false NOT NULL,
	"signature_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "workflow_objects" (
	"id" serial PRIMARY KEY NOT NULL,
	"instance_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"position" integer NOT NULL,
	"signed_file_id" integer
);
--> statement-breakpoint
CREATE TABLE "workflow_participants" (
	"id" serial PRIMARY KEY NOT NULL,
	"instance_id" integer NOT NULL,
	"role" text NOT NULL,
	"user_id" integer,
	"email" text NOT NULL,
	"name" text,
	"token_hash" text NOT NULL,
	"position" integer NOT NULL,
	"decision" text,
	"comment" text,
	"decided_at" timestamp with time zone,
	"opened_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "workflow_events" ADD CONSTRAINT "workflow_events_instance_id_workflow_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."workflow_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_instances" ADD CONSTRAINT "workflow_instances_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_objects" ADD CONSTRAINT "workflow_objects_instance_id_workflow_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."workflow_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_objects" ADD CONSTRAINT "workflow_objects_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_objects" ADD CONSTRAINT "workflow_objects_version_id_file_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."file_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_objects" ADD CONSTRAINT "workflow_objects_signed_file_id_files_id_fk" FOREIGN KEY ("signed_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_participants" ADD CONSTRAINT "workflow_participants_instance_id_workflow_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."workflow_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_participants" ADD CONSTRAINT "workflow_participants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workflow_events_instance_id_idx" ON "workflow_events" USING btree ("instance_id","id");--> statement-breakpoint
CREATE INDEX "workflow_instances_owner_id_idx" ON "workflow_instances" USING btree ("owner_id","id");--> statement-breakpoint
CREATE INDEX "workflow_instances_signature_id_idx" ON "workflow_instances" USING btree ("signature_id");--> statement-breakpoint
CREATE INDEX "workflow_objects_instance_id_idx" ON "workflow_objects" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "workflow_objects_file_id_idx" ON "workflow_objects" USING btree ("file_id","instance_id");--> statement-breakpoint
CREATE INDEX "workflow_participants_instance_id_idx" ON "workflow_participants" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "workflow_participants_user_id_idx" ON "workflow_participants" USING btree ("user_id");