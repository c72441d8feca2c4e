-- Issue 32: the dashboard's figures of today and of 30 days are range scans on these indexes
-- (active users by last use and last sign-in, signatures completed, validations closed).
CREATE INDEX "users_last_login_idx" ON "users" USING btree ("last_login");--> statement-breakpoint
CREATE INDEX "sessions_last_used_at_idx" ON "sessions" USING btree ("last_used_at");--> statement-breakpoint
CREATE INDEX "signature_requests_done_idx" ON "signature_requests" USING btree ("completed_at") WHERE "signature_requests"."status" = 'done';--> statement-breakpoint
CREATE INDEX "workflow_instances_closed_at_idx" ON "workflow_instances" USING btree ("closed_at") WHERE "workflow_instances"."closed_at" IS NOT NULL;