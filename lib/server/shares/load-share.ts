import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { shares, type ShareRow, type User } from "@/db/schema";
import { AppError } from "../errors";
import type { ProtectedLink } from "../links/link-types";
import { isConsumed, isExpired, needsCode, needsPassword } from "./share-flags";

/** A share its owner (or an administrator) manages; anyone else gets the same 404 as for an unknown id. */
export async function getOwnShareOrThrow(db: DbOrTx, user: Pick<User, "id" | "role">, shareId: number, options: { forUpdate?: boolean } = {}): Promise<ShareRow> {
  const query = db.select().from(shares).where(eq(shares.id, shareId)).limit(1);
  const [share] = options.forUpdate ? await query.for("update") : await query;
  if (!share || (share.ownerId !== user.id && user.role !== 3)) throw new AppError("not_found", "Link share not found");
  return share;
}

/**
 * The share behind a public key, usable right now: unknown or deleted keys are a 404
 * `link_not_found`; an expired link, or a single-download link that has served its download,
 * a 410 (`link_expired`, `link_exhausted`): the link exists but will never serve again.
 */
export async function getPublicShareOrThrow(db: DbOrTx, key: string): Promise<ShareRow> {
  const [share] = await db.select().from(shares).where(eq(shares.key, key)).limit(1);
  if (!share) throw new AppError("link_not_found", "This link does not exist or has been deleted");
  assertUsable(share);
  return share;
}

export function assertUsable(share: ShareRow): void {
  if (isExpired(share)) throw new AppError("link_expired", "This link has expired");
  if (isConsumed(share)) throw new AppError("link_exhausted", "This single-download link has already been used");
}

/** The share as link protection (passcheck, access tokens) sees it. */
export const protectionOf = (share: ShareRow): ProtectedLink => ({
  linkType: "share",
  linkId: share.id,
  passwordHash: share.passwordHash,
  needsPassword: needsPassword(share),
  needsCode: needsCode(share),
});
