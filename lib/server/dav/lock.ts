import "server-only";
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { inArray, sql } from "drizzle-orm";
import { davLocks } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { createFile } from "../files/create-file";
import { lockFile } from "../locks/lock-file";
import { resolveDavPath, type DavTarget } from "./dav-path";
import { DavError, sendXml } from "./dav-response";
import { activeLock, locksBelow, locksOfTarget, parseIf, submittedTokens, type DavLock } from "./dav-locks";
import { childElements, isDav, loadXmldom, parseXml, readSmallBody } from "./dav-xml";

const DEFAULT_TIMEOUT = 3600;
const MAX_TIMEOUT = 7 * 24 * 3600;

/**
 * LOCK (RFC 4918, 9.10): a write lock, exclusive or shared, on a file (it also takes our file
 * lock, so the API sees it: lockFile, edit right, 423 when another user holds it) or a folder
 * (depth 0 or infinity, write right). An unmapped URL gets an empty file first (201). Without a
 * body, refreshes the locks whose tokens the If header submits.
 */
export async function lock(ctx: AuthedCtx, req: IncomingMessage, res: ServerResponse, segments: string[]): Promise<void> {
  const timeout = parseTimeout(req.headers.timeout);
  const doc = await parseXml(await readSmallBody(req));
  let target = await resolveDavPath(ctx, segments);
  if (!doc) return refresh(ctx, req, res, target, timeout);
  const info = doc.documentElement!;
  if (!isDav(info, "lockinfo")) throw new AppError("invalid_request", "The body must be a DAV:lockinfo element");
  const children = childElements(info);
  const scopeEl = children.find((c) => isDav(c, "lockscope"));
  const scope = scopeEl && childElements(scopeEl).some((c) => isDav(c, "shared")) ? "shared" : "exclusive";
  const ownerEl = children.find((c) => isDav(c, "owner"));
  let owner = "";
  if (ownerEl) {
    const { XMLSerializer } = await loadXmldom();
    for (let n = ownerEl.firstChild; n; n = n.nextSibling) owner += new XMLSerializer().serializeToString(n);
  }
  const depthHeader = (Array.isArray(req.headers.depth) ? req.headers.depth[0] : req.headers.depth)?.trim().toLowerCase() ?? "infinity";
  if (depthHeader !== "0" && depthHeader !== "infinity") throw new AppError("invalid_request", "LOCK takes Depth 0 or infinity");

  if (target.kind === "orphan") throw new AppError("conflict", "The parent collection does not exist");
  if (target.kind === "root" || (target.kind === "missing" && !target.parent)) throw forbidden("The root cannot be locked");
  const tokens = submittedTokens(parseIf(headerOf(req, "if")));
  const assertNoConflict = async (t: typeof target, depth: number) => {
    const held = [...(await locksOfTarget(ctx.db, t)), ...(t.kind === "folder" && depth === -1 ? await locksBelow(ctx.db, t.folder) : [])];
    const conflicting = held.filter((l) => (scope === "exclusive" || l.scope === "exclusive") && !(tokens.has(l.token) && l.userId === ctx.actor.user.id));
    if (conflicting.length) throw new AppError("locked", "A conflicting lock is held", { dav: "no-conflicting-lock" });
  };
  let created = false;
  if (target.kind === "missing") {
    await assertNoConflict(target, 0);
    await createFile(ctx, { name: target.name, parent_id: target.parent!.folder.id }, { mode: "light" });
    created = true;
    target = await resolveDavPath(ctx, segments);
  }
  const depth = target.kind === "folder" && depthHeader === "infinity" ? -1 : 0;
  if (!created) await assertNoConflict(target, depth);
  if (target.kind === "file") await lockFile(ctx, target.version.id);
  else if (target.kind === "folder" && !target.rights.write) throw forbidden("Locking a folder needs the write right");
  if (target.kind !== "file" && target.kind !== "folder") throw new AppError("conflict", "The resource changed meanwhile");
  const [row] = await ctx.db
    .insert(davLocks)
    .values({
      token: `opaquelocktoken:${randomUUID()}`,
      userId: ctx.actor.user.id,
      fileId: target.kind === "file" ? target.file.id : null,
      folderId: target.kind === "folder" ? target.folder.id : null,
      scope,
      depth,
      owner,
      timeoutSeconds: timeout,
      expiresAt: new Date(Date.now() + timeout * 1000),
    })
    .returning();
  sendLock(res, created ? 201 : 200, row, segments, target.kind === "folder");
}

async function refresh(ctx: AuthedCtx, req: IncomingMessage, res: ServerResponse, target: DavTarget, timeout: number) {
  const tokens = submittedTokens(parseIf(headerOf(req, "if")));
  if (tokens.size === 0) throw new AppError("invalid_request", "A LOCK without body refreshes a lock: send its token in an If header");
  const mine = (await locksOfTarget(ctx.db, target)).filter((l) => tokens.has(l.token) && l.userId === ctx.actor.user.id);
  if (mine.length === 0) throw new DavError(412, "No lock of this resource has the token submitted", "lock-token-matches-request-uri");
  const refreshed = await ctx.db
    .update(davLocks)
    .set({ timeoutSeconds: timeout, expiresAt: sql`now() + make_interval(secs => ${timeout})` })
    .where(inArray(davLocks.id, mine.map((l) => l.id)))
    .returning();
  const [first] = refreshed;
  sendLock(res, 200, first, lockRootSegments(target, first), first.fileId === null);
}

/** The path of a lock's root (the target itself, or the folder above it that holds the lock). */
export function lockRootSegments(target: DavTarget, row: DavLock): string[] {
  if (target.kind !== "file" && target.kind !== "folder") return target.segments;
  if (row.fileId !== null || (target.kind === "folder" && row.folderId === target.folder.id)) return target.segments;
  const chain = [...target.folder.path, target.folder.id];
  const folderSegments = target.segments.length - (target.kind === "file" ? 1 : 0);
  const j = chain.indexOf(row.folderId!);
  const length = j - (chain.length - folderSegments) + 1;
  return length > 0 ? target.segments.slice(0, length) : target.segments;
}

function sendLock(res: ServerResponse, status: number, row: DavLock, segments: string[], collection: boolean) {
  sendXml(res, status, `<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLock(row, segments, collection)}</D:lockdiscovery></D:prop>`, { "Lock-Token": `<${row.token}>` });
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

/** `Timeout: Second-600, Infinite`: the first value understood, capped; an hour by default. */
function parseTimeout(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header.join(",") : header;
  for (const part of (value ?? "").split(",").map((p) => p.trim())) {
    if (/^infinite$/i.test(part)) return MAX_TIMEOUT;
    const match = /^Second-(\d+)$/i.exec(part);
    if (match) return Math.min(MAX_TIMEOUT, Math.max(1, Number(match[1])));
  }
  return DEFAULT_TIMEOUT;
}
