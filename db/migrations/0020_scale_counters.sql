CREATE TABLE "trash_purges" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer,
	"up_to_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_usage" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "trash_purges_owner_id_idx" ON "trash_purges" USING btree ("owner_id");--> statement-breakpoint
-- user_usage: the bytes of every version each user created, kept in the writing transaction by
-- statement-level triggers (one upsert per statement and user, whatever the number of rows).
CREATE FUNCTION "user_usage_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "user_usage" AS u ("user_id", "bytes")
      SELECT "creator_id", sum("size") FROM new_rows GROUP BY "creator_id" ORDER BY "creator_id"
      ON CONFLICT ("user_id") DO UPDATE SET "bytes" = u."bytes" + excluded."bytes";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "user_usage" AS u ("user_id", "bytes")
      SELECT "creator_id", -sum("size") FROM old_rows GROUP BY "creator_id" ORDER BY "creator_id"
      ON CONFLICT ("user_id") DO UPDATE SET "bytes" = u."bytes" + excluded."bytes";
  ELSE
    INSERT INTO "user_usage" AS u ("user_id", "bytes")
      SELECT "creator_id", sum("delta") FROM (
        SELECT "creator_id", "size" AS "delta" FROM new_rows
        UNION ALL SELECT "creator_id", -"size" FROM old_rows) d
      GROUP BY "creator_id" HAVING sum("delta") <> 0 ORDER BY "creator_id"
      ON CONFLICT ("user_id") DO UPDATE SET "bytes" = u."bytes" + excluded."bytes";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "file_versions_usage_insert" AFTER INSERT ON "file_versions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_usage_track"();
--> statement-breakpoint
CREATE TRIGGER "file_versions_usage_delete" AFTER DELETE ON "file_versions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_usage_track"();
--> statement-breakpoint
CREATE TRIGGER "file_versions_usage_update" AFTER UPDATE ON "file_versions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_usage_track"();
--> statement-breakpoint
INSERT INTO "user_usage" ("user_id", "bytes")
  SELECT "creator_id", sum("size") FROM "file_versions" GROUP BY "creator_id";
--> statement-breakpoint
-- The page of a big folder picks its ids on this index: with `id` included, skipping to the
-- middle of 100,000 files is an index-only scan (no heap visit per skipped row). drizzle's index
-- builder has no INCLUDE: db/schema/files.ts declares the same index without it.
DROP INDEX "files_folder_id_name_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "files_folder_id_name_idx" ON "files" USING btree ("folder_id", "name_key") INCLUDE ("id") WHERE "files"."deleted_at" IS NULL;

--> statement-breakpoint
-- Content search (texts to their live files) and what a user owns.
CREATE INDEX "folders_owner_id_idx" ON "folders" USING btree ("owner_id");
--> statement-breakpoint
CREATE INDEX "files_current_version_id_idx" ON "files" USING btree ("current_version_id") WHERE "files"."deleted_at" IS NULL;
--> statement-breakpoint
-- A user's trash newest first: one backward range scan instead of every user's items by date.
DROP INDEX "trash_items_owner_id_idx";
--> statement-breakpoint
CREATE INDEX "trash_items_owner_id_deleted_at_idx" ON "trash_items" USING btree ("owner_id","deleted_at","id");
