-- Issue 33: a text is indexed in its language (a generated column cannot cast text to regconfig,
-- so each configuration is a constant of the CASE); OCR progress, the missing tool and the
-- searchable PDF of a scan. The language column comes first: the new tsv reads it. Dropping tsv
-- drops its GIN index, made again at the end.
ALTER TABLE "version_texts" ADD COLUMN "language" text DEFAULT 'simple' NOT NULL;--> statement-breakpoint
ALTER TABLE "version_texts" ADD COLUMN "tool_missing" text;--> statement-breakpoint
ALTER TABLE "version_texts" ADD COLUMN "pages_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "version_texts" ADD COLUMN "searchable_blob_id" text;--> statement-breakpoint
ALTER TABLE "version_texts" ADD COLUMN "searchable_size" bigint;--> statement-breakpoint
ALTER TABLE "version_texts" drop column "tsv";--> statement-breakpoint
ALTER TABLE "version_texts" ADD COLUMN "tsv" "tsvector" GENERATED ALWAYS AS (CASE language WHEN 'english' THEN to_tsvector('english'::regconfig, left(content, 1000000)) WHEN 'french' THEN to_tsvector('french'::regconfig, left(content, 1000000)) WHEN 'german' THEN to_tsvector('german'::regconfig, left(content, 1000000)) WHEN 'spanish' THEN to_tsvector('spanish'::regconfig, left(content, 1000000)) WHEN 'italian' THEN to_tsvector('italian'::regconfig, left(content, 1000000)) WHEN 'portuguese' THEN to_tsvector('portuguese'::regconfig, left(content, 1000000)) ELSE to_tsvector('simple'::regconfig, left(content, 1000000)) END) STORED;--> statement-breakpoint
CREATE INDEX "version_texts_searchable_blob_id_idx" ON "version_texts" USING btree ("searchable_blob_id") WHERE "version_texts"."searchable_blob_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "version_texts_tsv_idx" ON "version_texts" USING gin ("tsv");
