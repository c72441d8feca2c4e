import "server-only";
import { SHARE_FLAG, type ShareRow } from "@/db/schema";
import type { CreateSharelinkInput, LegacyOptions, UpdateSharelinkInput } from "@/lib/contracts/sharelinks";
import type { CreateShareInput, UpdateShareInput } from "@/lib/contracts/shares";

const MODE_MASK = 15;

/**
 * The legacy options as flags of a current share: only_preview → 2 (else 4, preview and
 * download), notify → 64, max_downloads 1 → 128, type 1 → 32 (SMS code); a password turns 16 on
 * through the share's own protection rules. Options given leave the others as they are.
 */
export function legacyFlags(input: UpdateSharelinkInput, current: number): number {
  let flags = current;
  const set = (bit: number, on: boolean | undefined) => {
    if (on !== undefined) flags = on ? flags | bit : flags & ~bit;
  };
  if (input.only_preview !== undefined) flags = (flags & ~MODE_MASK) | (input.only_preview ? SHARE_FLAG.previewOnly : SHARE_FLAG.previewAndDownload);
  set(SHARE_FLAG.receipt, input.notify);
  if (input.max_downloads !== undefined) set(SHARE_FLAG.singleDownload, input.max_downloads === 1);
  if (input.type !== undefined) set(SHARE_FLAG.sms, input.type === 1);
  return flags;
}

/** The options current shares have no column for, merged into shares.legacy. */
export function legacyOptions(input: UpdateSharelinkInput, current: unknown): LegacyOptions {
  const merged: LegacyOptions = { ...((current ?? {}) as LegacyOptions) };
  if (input.max_downloads !== undefined) merged.max_downloads = input.max_downloads;
  if (input.autoupdate !== undefined) merged.autoupdate = input.autoupdate;
  if (input.force_dl !== undefined) merged.force_dl = input.force_dl;
  return merged;
}

const fileRoots = (ids: number[]) => ids.map((id) => ({ id, entity_type: 1 as const }));

/** POST /sharelink as a POST /share body. */
export function toCreateShareInput(input: CreateSharelinkInput): CreateShareInput {
  return {
    roots: fileRoots(input.files ?? [input.file_id!]),
    flags: legacyFlags({ ...input, only_preview: input.only_preview ?? false }, 0),
    expiration_date: input.expiration_date,
    name: input.name,
    password: input.password,
    phone: input.phone,
  };
}

/** PUT /sharelink/(id) as a PUT /share/(id) body. */
export function toUpdateShareInput(input: UpdateSharelinkInput, share: ShareRow): UpdateShareInput {
  return {
    roots: input.files ? fileRoots(input.files) : undefined,
    flags: legacyFlags(input, share.flags),
    expiration_date: input.expiration_date,
    name: input.name,
    password: input.password,
    phone: input.phone,
  };
}
