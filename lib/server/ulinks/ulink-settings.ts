import "server-only";
import type { DbOrTx } from "@/db";
import type { User } from "@/db/schema";
import { ULINK_FLAG } from "@/lib/contracts/ulinks";
import { getPlatformConfig } from "../config/platform-config";
import { AppError } from "../errors";
import { getFolderOrThrow } from "../folders/get-folder";

/**
 * Where a drop link may point: a folder the user may share (contract: the share right) and also
 * write to, since deposits are committed with the owner's rights: a link must not let strangers
 * write where its owner cannot. Needs the platform feature `upload_link`.
 */
export async function assertUlinkDestination(db: DbOrTx, user: Pick<User, "id" | "role">, folderId: number) {
  const { features } = await getPlatformConfig(db);
  if (!features.upload_link) throw new AppError("forbidden", "Drop links are disabled on this platform");
  const { folder, rights } = await getFolderOrThrow(db, user, folderId, "share");
  if (!rights.write) throw new AppError("forbidden", "A drop link needs the write right on its folder");
  return folder;
}

/** The stored flags: 4 for the receipt (`alert` or flag 4), 16 and 32 mirroring a password and a phone. */
export function ulinkFlags(receipt: boolean, protection: { password: boolean; phone: boolean }): number {
  return (receipt ? ULINK_FLAG.receipt : 0) | (protection.password ? ULINK_FLAG.password : 0) | (protection.phone ? ULINK_FLAG.sms : 0);
}

/** An expiration date must lie ahead: a link born expired would only confuse. */
export function assertFutureExpiration(date: Date | null | undefined) {
  if (date && date.getTime() <= Date.now()) {
    throw new AppError("invalid_request", "expiration_date must be in the future", [{ path: "expiration_date", message: "must be in the future" }]);
  }
}
