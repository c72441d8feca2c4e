ALTER TABLE "file_tokens" ADD COLUMN "recipient_id" integer;--> statement-breakpoint
CREATE INDEX "group_members_user_id_idx" ON "group_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "file_versions_blob_id_idx" ON "file_versions" USING btree ("blob_id");