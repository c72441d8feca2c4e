import "server-only";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import type { ShareVisit } from "../links/resolve-link-visitor";
import { loadRootItems } from "../shares/share-items";
import { assertShareAllows, createShareToken } from "../shares/share-tokens";

/**
 * GET /sharelink/download/(key) (obsolete, no account): a redirect (302) to where the current API
 * serves the bytes, so every rule of those routes applies (preview-only links refused, single
 * download claimed once, receipts, activity): one file → a link-share download token on
 * GET /file/download; several files → GET /zip/share/(key) with the visitor's access token.
 */
export async function downloadSharelink(ctx: Ctx, visit: ShareVisit, base: string): Promise<Response> {
  const { share, accessToken } = visit;
  const roots = await loadRootItems(ctx.db, share);
  if (roots.folders.length === 0 && roots.files.length === 0) throw new AppError("not_found", "Nothing is left to download through this link");
  if (roots.folders.length === 0 && roots.files.length === 1) {
    const { token } = await createShareToken(ctx, visit, { only: true }, "download");
    return redirect(`${base}/api/file/download?token=${encodeURIComponent(token)}`);
  }
  await assertShareAllows(ctx.db, share, "download");
  return redirect(`${base}/api/zip/share/${encodeURIComponent(share.key)}${accessToken ? `?access_token=${encodeURIComponent(accessToken)}` : ""}`);
}

const redirect = (location: string) => new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store" } });
