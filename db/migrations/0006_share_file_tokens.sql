ALTER TABLE "file_tokens" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "file_tokens" ADD COLUMN "share_id" integer;--> statement-breakpoint
ALTER TABLE "file_tokens" ADD CONSTRAINT "file_tokens_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;