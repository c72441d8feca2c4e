-- Link-share events (file timeline type 2) were recorded without their version, so the timeline,
-- which lists events by version, never showed them and total_dlinks stayed 0. Each takes the
-- version that was the newest when the share was made.
UPDATE "events" AS e SET "version_id" = (
  SELECT v."id" FROM "file_versions" v
  WHERE v."file_id" = e."target_id" AND v."created_at" <= e."date"
  ORDER BY v."number" DESC LIMIT 1)
WHERE e."target_type" = 'file' AND e."type" = 2 AND e."version_id" IS NULL;
