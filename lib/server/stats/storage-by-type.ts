import "server-only";
import { or, sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { fileVersions, files } from "@/db/schema";
import { STORAGE_TYPES, type StorageType, type StorageByType } from "@/lib/contracts/stats";
import { typeMatch } from "../search/file-types";

const mime = sql`lower(split_part(${fileVersions.mime}, ';', 1))`;

/**
 * Each version's family, first match wins. Documents come first and also go by the name's
 * extension (search's rules, file-types.ts): an office file is often sniffed as a zip, and must
 * not count as an archive.
 */
const FAMILY = sql`CASE
  WHEN ${or(typeMatch(["document", "spreadsheet", "presentation", "pdf", "text"], fileVersions.mime, files.nameKey), sql`${mime} LIKE 'text/%'`)} THEN 'documents'
  WHEN ${typeMatch(["image"], fileVersions.mime, files.nameKey)} THEN 'images'
  WHEN ${typeMatch(["video"], fileVersions.mime, files.nameKey)} THEN 'video'
  WHEN ${typeMatch(["audio"], fileVersions.mime, files.nameKey)} THEN 'audio'
  WHEN ${typeMatch(["archive"], fileVersions.mime, files.nameKey)} THEN 'archives'
  ELSE 'other' END`;

/**
 * Storage by type: the bytes and the number of every version (trashed included, as quotas and
 * `storage.main.used` count them), by family; every family is listed, in a fixed order, so the
 * sizes add up to `main.used`. One pass over every version: a costly part, cached (get-stats.ts).
 */
export async function storageByType(db: DbOrTx): Promise<StorageByType> {
  const found = rows<{ type: StorageType; count: string | number; size: string | number }>(
    await db.execute(sql`
      SELECT ${FAMILY} AS type, count(*) AS count, coalesce(sum(${fileVersions.size}), 0) AS size
      FROM ${fileVersions} JOIN ${files} ON ${files.id} = ${fileVersions.fileId}
      GROUP BY 1`),
  );
  const byType = new Map(found.map((r) => [r.type, r]));
  return STORAGE_TYPES.map((type) => ({ type, size: Number(byType.get(type)?.size ?? 0), count: Number(byType.get(type)?.count ?? 0) }));
}
