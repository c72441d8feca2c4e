ALTER TABLE "signature_fields" ADD COLUMN "options" jsonb;--> statement-breakpoint
ALTER TABLE "signature_fields" ADD COLUMN "read_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "signature_fields" ADD COLUMN "font_size" double precision;