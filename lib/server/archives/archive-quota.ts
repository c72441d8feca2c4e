import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { AppError } from "../errors";

/** The archive tier's own quota, in bytes (ARCHIVE_QUOTA; unset or 0: none). */
export function archiveQuota(): number | null {
  const raw = Number(process.env.ARCHIVE_QUOTA ?? "");
  return Number.isFinite(raw) && raw > 0 ? raw : null;
}

/** Bytes the archives hold, counted as they were stored live (the archive quota's measure). */
export async function archivedBytes(db: DbOrTx): Promise<number> {
  const [r] = rows<{ used: string | number }>(await db.execute(sql`SELECT coalesce(sum(size), 0) AS used FROM archives`));
  return Number(r.used);
}

/**
 * 507 when `bytes` more would exceed the archive quota. Archivings are checked one after the
 * other (a transaction-scoped lock), so two of them cannot both take the last room.
 */
export async function assertArchiveQuota(db: DbOrTx, bytes: number) {
  const quota = archiveQuota();
  if (quota === null) return;
  await db.execute(sql`SELECT pg_advisory_xact_lock(727017)`);
  if ((await archivedBytes(db)) + bytes > quota) {
    throw new AppError("insufficient_storage", "Archive storage exhausted: this would exceed the archive quota", { quota: "archive" });
  }
}
