ALTER TABLE "emails" ADD COLUMN "sensitive" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "emails_owner_id_idx" ON "emails" USING btree ("owner_id","id");