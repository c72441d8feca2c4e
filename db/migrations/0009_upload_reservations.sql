ALTER TABLE "uploads" ADD COLUMN "ulink_id" integer;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_ulink_id_ulinks_id_fk" FOREIGN KEY ("ulink_id") REFERENCES "public"."ulinks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_user_id_idx" ON "uploads" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "uploads_folder_id_idx" ON "uploads" USING btree ("folder_id");--> statement-breakpoint
CREATE INDEX "uploads_ulink_id_idx" ON "uploads" USING btree ("ulink_id");