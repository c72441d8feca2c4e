ALTER TABLE "ulink_deposits" ADD COLUMN "depositor_name" text;--> statement-breakpoint
ALTER TABLE "ulink_deposits" ADD COLUMN "depositor_email" text;--> statement-breakpoint
ALTER TABLE "ulinks" ADD COLUMN "depositor" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
CREATE INDEX "files_folder_id_modified_at_idx" ON "files" USING btree ("folder_id","modified_at","name_key","id") WHERE "files"."deleted_at" IS NULL;