import "server-only";
import type { z } from "zod";
import type { publicShareResponse } from "@/lib/contracts/shares";
import type { Ctx } from "../context";
import { iso } from "../present/envelope";
import { isUnlocked } from "../links/link-access";
import { loadOwnerNames } from "../users/owner-names";
import { getPublicShareOrThrow, protectionOf } from "./load-share";
import { recipientKeyOf } from "../share-emails/visit-recipient";
import { recordShareAccess } from "./record-access";
import { needsCode, needsPassword, shareCans } from "./share-flags";
import { loadRootItems, presentShareItems } from "./share-items";

/**
 * GET /share/key/(key) (no account): what the visitor's page shows. A protected link answers
 * what it needs (password, code) and nothing of its content until an access token unlocks it;
 * an unlocked view counts as a visit.
 */
export async function viewShare(ctx: Ctx, key: string, req: Request): Promise<z.infer<typeof publicShareResponse>> {
  const share = await getPublicShareOrThrow(ctx.db, key);
  const unlocked = await isUnlocked(ctx.db, protectionOf(share), req);
  const owners = await loadOwnerNames(ctx.db, [share.ownerId]);
  const view = {
    key: share.key,
    name: unlocked ? share.name : null,
    flags: share.flags,
    expiration_date: iso(share.expirationDate),
    owner: owners.get(share.ownerId) ?? "",
    needs_password: needsPassword(share),
    needs_code: needsCode(share),
    unlocked,
    ...shareCans(share.flags),
  };
  if (!unlocked) return view;
  await recordShareAccess(ctx.db, share, ctx.request, { kind: "visit", recipientKey: recipientKeyOf(req) });
  return { ...view, roots: await presentShareItems(ctx.db, share, await loadRootItems(ctx.db, share), true) };
}
