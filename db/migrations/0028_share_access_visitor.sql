ALTER TABLE "file_tokens" ADD COLUMN "visitor_id" integer;--> statement-breakpoint
ALTER TABLE "share_accesses" ADD COLUMN "visitor_id" integer;