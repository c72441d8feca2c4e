import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileVersions, versionRenditions, type FileVersion, type VersionRendition } from "@/db/schema";

/**
 * The rendition of a version: its own, or that of another version with the same bytes (copies
 * and clones share a blob, and take the finished previews of their source instead of a new job).
 */
export async function findRendition(db: DbOrTx, version: Pick<FileVersion, "id" | "blobId">): Promise<VersionRendition | null> {
  const [own] = await db.select().from(versionRenditions).where(eq(versionRenditions.versionId, version.id)).limit(1);
  if (own || !version.blobId) return own ?? null;
  const [shared] = await db
    .select({ rendition: versionRenditions })
    .from(versionRenditions)
    .innerJoin(fileVersions, eq(fileVersions.id, versionRenditions.versionId))
    .where(eq(fileVersions.blobId, version.blobId))
    .limit(1);
  return shared?.rendition ?? null;
}
