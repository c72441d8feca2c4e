import "server-only";
import type { z } from "zod";
import type { publicShareResponse } from "@/lib/contracts/shares";
import type { Ctx } from "../context";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";
import type { ShareVisit } from "../links/resolve-link-visitor";
import { recordShareAccess } from "./record-access";
import { needsCode, needsPassword, shareCans } from "./share-flags";
import { loadRootItems, presentShareItems } from "./share-items";

/**
 * GET /share/key/(key) (no account): what the visitor's page shows. A protected link answers
 * what it needs (password, code) and nothing of its content until an access token unlocks it;
 * an unlocked view counts as a visit.
 */
export async function viewShare(ctx: Ctx, { share, unlocked, recipientId }: ShareVisit): Promise<z.infer<typeof publicShareResponse>> {
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
  await recordShareAccess(ctx.db, share, ctx.request, { kind: "visit", recipientId });
  return { ...view, roots: await presentShareItems(ctx.db, share, await loadRootItems(ctx.db, share), true) };
}
