-- Account security (issue 29, item 9): app passwords are rows of `sessions` (kind app_password) with
-- a name; the sessions POST /auth opens with one point at it (parent_id) and end with it.
ALTER TABLE "sessions" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "parent_id" bigint;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_parent_id_sessions_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_parent_id_idx" ON "sessions" USING btree ("parent_id");