import "server-only";
import { SHARE_FLAG, type ShareRow } from "@/db/schema";
import { AppError } from "../errors";

const MODES = [SHARE_FLAG.downloadOnly, SHARE_FLAG.previewOnly, SHARE_FLAG.previewAndDownload, SHARE_FLAG.edit];
const MODE_MASK = 15;

/**
 * Validates a flag mask: exactly one access mode (1, 2, 4 or 8; 4 when none is given), 16 only
 * with a password, 32 only with a phone. Returns the mask to store.
 */
export function checkShareFlags(flags: number, has: { password: boolean; phone: boolean }): number {
  let mask = flags;
  const modes = MODES.filter((m) => mask & m);
  if (modes.length === 0) mask |= SHARE_FLAG.previewAndDownload;
  if (modes.length > 1) throw new AppError("invalid_request", "Choose exactly one access mode: 1, 2, 4 or 8", [{ path: "flags", message: "Several access modes" }]);
  if (mask & SHARE_FLAG.password && !has.password) throw new AppError("invalid_request", "Flag 16 needs a password", [{ path: "password", message: "Required with flag 16" }]);
  if (mask & SHARE_FLAG.sms && !has.phone) throw new AppError("invalid_request", "Flag 32 needs a phone number", [{ path: "phone", message: "Required with flag 32" }]);
  return mask;
}

/** What a link lets its visitors do with the files it shows. */
export function shareCans(flags: number) {
  const mode = flags & MODE_MASK;
  return {
    can_download: mode !== SHARE_FLAG.previewOnly,
    can_preview: mode !== SHARE_FLAG.downloadOnly,
    can_edit: mode === SHARE_FLAG.edit,
  };
}

export const needsPassword = (share: Pick<ShareRow, "flags">) => Boolean(share.flags & SHARE_FLAG.password);
export const needsCode = (share: Pick<ShareRow, "flags">) => Boolean(share.flags & SHARE_FLAG.sms);
export const isSingleDownload = (share: Pick<ShareRow, "flags">) => Boolean(share.flags & SHARE_FLAG.singleDownload);
export const wantsReceipt = (share: Pick<ShareRow, "flags">) => Boolean(share.flags & SHARE_FLAG.receipt);

export const isExpired = (share: Pick<ShareRow, "expirationDate">, now = new Date()) => Boolean(share.expirationDate && share.expirationDate <= now);
export const isConsumed = (share: Pick<ShareRow, "flags" | "consumedAt">) => isSingleDownload(share) && share.consumedAt !== null;
