import "server-only";
import { and, eq, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { archives, type Archive, type User } from "@/db/schema";
import { AppError } from "../errors";

type Who = Pick<User, "id" | "role">;

export const archiveNotFound = () => new AppError("not_found", "Archive not found");

/**
 * The archives a user sees: their own, the archives of what they owned whoever made them (the
 * owner keeps an archive: issue 25); administrators see every archive. Whoever archived
 * something of someone else's no longer reaches it (as in Box: the owner's, not the actor's).
 */
export const ownArchives = (user: Who) => (user.role === 3 ? undefined : eq(archives.ownerId, user.id));

/**
 * The archive of a file (named by any of its version ids, archived or not yet moved) or of a
 * folder, for its owner or an administrator; anyone else gets the 404 of an unknown id.
 */
export async function getOwnArchiveOrThrow(db: DbOrTx, user: Who, type: "file" | "folder", apiId: number, options: { lock?: boolean } = {}): Promise<Archive> {
  const object =
    type === "folder"
      ? eq(archives.objectId, apiId)
      : or(
          eq(archives.objectVersionId, apiId),
          sql`${archives.objectId} = (SELECT file_id FROM archive_versions WHERE id = ${apiId} UNION SELECT file_id FROM file_versions WHERE id = ${apiId} LIMIT 1)`,
        );
  const query = db.select().from(archives).where(and(eq(archives.type, type), object, ownArchives(user))).limit(1);
  const [archive] = options.lock ? await query.for("update") : await query;
  if (!archive) throw archiveNotFound();
  return archive;
}

/** 409 unless the archive is settled (its bytes are in the cold tier, nothing is moving). */
export function assertSettled(archive: Archive) {
  if (archive.state === "pending") throw new AppError("conflict", "This archive is still being made; try again in a moment");
  if (archive.state === "restoring") throw new AppError("conflict", "This archive is being restored");
}
