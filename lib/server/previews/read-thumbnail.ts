import "server-only";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { users, versionPreviews, type User, type VersionPreview } from "@/db/schema";
import type { ThumbnailStateResponse } from "@/lib/contracts/previews";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { accountRefusal } from "../auth/account-state";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import type { ShareVisit } from "../links/resolve-link-visitor";
import { getSharedFileOrThrow } from "../shares/share-items";
import { assertShareAllows } from "../shares/share-tokens";
import { enqueueDerivatives } from "./enqueue-derivatives";
import { verifyThumbToken } from "./thumb-token";

const POLL_MS = 250;
/** The contract's wait for a thumbnail being made (30 s); PREVIEW_WAIT_MS shortens it for tests. */
export const waitMs = () => Number(process.env.PREVIEW_WAIT_MS ?? 30_000);

export type ThumbnailQuery = { state: boolean; token?: string; key?: string };

/**
 * GET /mixer/(fileId): the thumbnail of a version (read right), by the caller's session or by
 * the File's `thumb_token` (`?token=`, for an <img>). While it is being made the request waits
 * up to 30 s, then answers 423. `?state=1` answers `{state}` at once. A format without thumbnail
 * is a 415; a thumbnail that could not be made a 404 with the reason. A version older than the
 * previews (no row) gets its thumbnail queued on the way. A link share's visitor reads the
 * thumbnails of the files it shows (`key`): a small derived image, so preview-only links have them too.
 */
export async function readThumbnail(ctx: Ctx, versionId: number, query: ThumbnailQuery, visit: ShareVisit | null, ifNoneMatch: string | null): Promise<Response | ThumbnailStateResponse> {
  const version = visit ? await sharedVersion(ctx, versionId, visit) : await readableVersion(ctx, versionId, query.token);
  let preview = await findPreview(ctx.db, version.id);
  if (!preview) {
    await enqueueDerivatives(ctx.db, version);
    preview = (await findPreview(ctx.db, version.id))!;
  }
  if (preview.state === "none") throw new AppError("unsupported_media_type", "This format has no thumbnail", { state: "none", reason: preview.error });
  // The column is text: its states are those of the contract (make-preview writes them), "none" refused above.
  if (query.state) return { state: preview.state as ThumbnailStateResponse["state"] };

  const deadline = Date.now() + waitMs();
  while (isInProgress(preview) && Date.now() < deadline) {
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
    preview = (await findPreview(ctx.db, version.id)) ?? preview;
  }
  if (isInProgress(preview)) throw new AppError("locked", "The thumbnail is still being made; try again later", { state: preview.state });
  if (preview.state !== "available" || !preview.thumbBlobId) {
    throw new AppError("not_found", "No thumbnail could be made from this file", { state: preview.state, reason: preview.error });
  }
  return streamThumbnail(preview.thumbBlobId, preview.thumbMime ?? "image/webp", ifNoneMatch);
}

async function readableVersion(ctx: Ctx, versionId: number, token: string | undefined) {
  const user = ctx.actor?.user ?? (await userOfToken(ctx.db, versionId, token));
  return (await getFileOrThrow(ctx.db, user, versionId, "read")).version;
}

async function sharedVersion(ctx: Ctx, versionId: number, { share }: ShareVisit) {
  await assertShareAllows(ctx.db, share, "preview");
  return (await getSharedFileOrThrow(ctx.db, share, { versionId })).version;
}

const isInProgress = (p: VersionPreview) => p.state === "pending" || p.state === "preparing";

async function findPreview(db: DbOrTx, versionId: number): Promise<VersionPreview | undefined> {
  const [row] = await db.select().from(versionPreviews).where(eq(versionPreviews.versionId, versionId));
  return row;
}

/** The user a thumbnail token speaks for; it is good for its own version only. */
async function userOfToken(db: DbOrTx, versionId: number, token: string | undefined): Promise<User> {
  if (!token) throw new AppError("unauthorized", "Authentication required: send Authorization: Bearer <token> or a thumbnail token");
  const claims = await verifyThumbToken(token);
  if (!claims || claims.versionId !== versionId) throw new AppError("forbidden", "This thumbnail token is invalid or has expired");
  const [user] = await db.select().from(users).where(eq(users.id, claims.userId));
  if (!user || accountRefusal(user)) throw new AppError("forbidden", "This thumbnail token is invalid or has expired");
  return user;
}

/** A new thumbnail is a new blob, so the blob id is a strong ETag. */
async function streamThumbnail(blobId: string, mime: string, ifNoneMatch: string | null): Promise<Response> {
  const etag = `"${blobId}"`;
  const headers = { "Content-Type": mime, "Cache-Control": "private, max-age=300, must-revalidate", ETag: etag, "X-Content-Type-Options": "nosniff" };
  if (ifNoneMatch?.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  const store = getBlobStore();
  const size = await store.size(blobId);
  if (size === null) throw new AppError("not_found", "The thumbnail is missing");
  const stream = await store.read(blobId);
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { headers: { ...headers, "Content-Length": String(size) } });
}
