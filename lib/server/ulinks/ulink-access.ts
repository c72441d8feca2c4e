import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { folders, linkAccessTokens, linkCodes, ulinks, users, type User, type UlinkRow } from "@/db/schema";
import { refusalReason } from "../auth/account-state";
import { AppError } from "../errors";
import type { ProtectedLink } from "../links/link-types";
import { isUlinkExpired } from "./present-ulinks";

/** A drop link its owner (or an administrator) manages; anyone else gets a 404, as for an unknown id. */
export async function getOwnUlinkOrThrow(db: DbOrTx, user: Pick<User, "id" | "role">, ulinkId: number): Promise<UlinkRow> {
  const [link] = await db.select().from(ulinks).where(eq(ulinks.id, ulinkId)).limit(1);
  if (!link || (link.ownerId !== user.id && user.role !== 3)) throw new AppError("not_found", "Drop link not found");
  return link;
}

export async function findUlinkByKeyOrThrow(db: DbOrTx, key: string): Promise<UlinkRow> {
  const [link] = await db.select().from(ulinks).where(eq(ulinks.key, key)).limit(1);
  if (!link) throw new AppError("link_not_found", "This drop link does not exist (it may have been deleted)");
  return link;
}

export type UsableUlink = { link: UlinkRow; owner: User; folderId: number };

/** Why a visitor may not deposit through this link now, or null when they may. */
export async function ulinkRefusal(db: DbOrTx, link: UlinkRow): Promise<{ usable: UsableUlink } | { reason: string }> {
  if (isUlinkExpired(link)) return { reason: "This drop link has expired" };
  if (link.folderId === null) return { reason: "The destination of this drop link no longer exists" };
  const [folder] = await db.select({ id: folders.id }).from(folders).where(and(eq(folders.id, link.folderId), isNull(folders.deletedAt))).limit(1);
  if (!folder) return { reason: "The destination of this drop link no longer exists" };
  const [owner] = await db.select().from(users).where(eq(users.id, link.ownerId)).limit(1);
  // Deposits are committed as the owner: an account that may not sign in receives nothing either.
  if (!owner || refusalReason(owner)) return { reason: "The owner of this drop link can no longer receive files" };
  return { usable: { link, owner, folderId: folder.id } };
}

/**
 * The link behind a public key, ready to receive: unknown or deleted keys are 404
 * `link_not_found`; an expired link, a destination gone or an owner who may no longer sign in
 * are 410 `link_expired` (the link stays listed for its owner but serves nothing).
 */
export async function openUlinkOrThrow(db: DbOrTx, key: string): Promise<UsableUlink> {
  const link = await findUlinkByKeyOrThrow(db, key);
  const outcome = await ulinkRefusal(db, link);
  if ("reason" in outcome) throw new AppError("link_expired", outcome.reason);
  return outcome.usable;
}

/** The drop link as the shared link protection sees it (password and/or SMS code). */
export const ulinkProtection = (link: Pick<UlinkRow, "id" | "passwordHash" | "phone">): ProtectedLink => ({
  linkType: "ulink",
  linkId: link.id,
  passwordHash: link.passwordHash,
  needsPassword: link.passwordHash !== null,
  needsCode: link.phone !== null,
});

/** Deleted links leave no live access token nor code behind (those tables have no foreign key). */
export async function forgetUlinkSecrets(db: DbOrTx, ulinkIds: number[]) {
  if (ulinkIds.length === 0) return;
  await db.delete(linkAccessTokens).where(and(eq(linkAccessTokens.linkType, "ulink"), inArray(linkAccessTokens.linkId, ulinkIds)));
  await db.delete(linkCodes).where(and(eq(linkCodes.linkType, "ulink"), inArray(linkCodes.linkId, ulinkIds)));
}
