ALTER TABLE "emails" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD COLUMN "message" text;