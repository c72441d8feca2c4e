import "server-only";
import { and, eq, inArray, lte, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { davLocks, fileLocks, type Folder } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { idIn } from "../folders/id-array";
import { DavError } from "./dav-response";
import { davHref, davSegments, resolveDavPath, type DavTarget } from "./dav-path";
import { etagOf, idsOf, resourceKey, resourceOf, rowKey, type DavResource } from "./dav-resources";
import { escapeXml } from "./dav-xml";

export type DavLock = typeof davLocks.$inferSelect;

/** What a lock or a change applies to: a file, a folder, or a new member of a folder. */
type Place = { fileId?: number; folder: Folder; self: "file" | "folder" | "member" };

function placeOf(target: DavTarget): Place | null {
  if (target.kind === "file") return { fileId: target.file.id, folder: target.folder, self: "file" };
  if (target.kind === "folder") return { folder: target.folder, self: "folder" };
  if (target.kind === "missing" && target.parent) return { folder: target.parent.folder, self: "member" };
  return null;
}

/**
 * Expired locks go, with the file lock each held when no other WebDAV lock of its user still
 * holds that file (a lock a client forgot must not keep a file locked for the API forever).
 */
export async function dropExpiredLocks(db: DbOrTx): Promise<void> {
  const gone = await db.delete(davLocks).where(lte(davLocks.expiresAt, sql`now()`)).returning();
  for (const lock of gone) {
    if (lock.fileId === null) continue;
    const [still] = await db.select({ id: davLocks.id }).from(davLocks).where(and(eq(davLocks.fileId, lock.fileId), eq(davLocks.userId, lock.userId))).limit(1);
    if (!still) await db.delete(fileLocks).where(and(eq(fileLocks.fileId, lock.fileId), eq(fileLocks.ownerId, lock.userId)));
  }
}

/**
 * The live locks that cover a place: on the file itself, on its folder (a lock on a collection
 * covers its members, RFC 4918 7.5, and the membership itself), and depth-infinity locks of
 * every folder above.
 */
export async function coveringLocks(db: DbOrTx, place: Place): Promise<DavLock[]> {
  await dropExpiredLocks(db);
  const ancestors = place.folder.path;
  const conditions = [
    ...(place.fileId !== undefined ? [eq(davLocks.fileId, place.fileId)] : []),
    eq(davLocks.folderId, place.folder.id),
    ...(ancestors.length ? [and(inArray(davLocks.folderId, ancestors), eq(davLocks.depth, -1))] : []),
  ];
  // A member of a folder locked with depth 0: the folder's lock covers it only as membership.
  const locks = await db.select().from(davLocks).where(or(...conditions));
  return locks.filter((l) => !(place.self === "file" && l.folderId === place.folder.id && l.depth === 0));
}

export async function locksOfTarget(db: DbOrTx, target: DavTarget): Promise<DavLock[]> {
  const place = placeOf(target);
  return place ? coveringLocks(db, place) : [];
}

/** The locks held on a folder's subtree (a depth-infinity lock must not cover another's lock). */
export async function locksBelow(db: DbOrTx, folder: Folder): Promise<DavLock[]> {
  await dropExpiredLocks(db);
  return db
    .select()
    .from(davLocks)
    .where(
      or(
        sql`${davLocks.folderId} IN (SELECT id FROM folders WHERE path @> ARRAY[${folder.id}::int] AND deleted_at IS NULL)`,
        sql`${davLocks.fileId} IN (SELECT f.id FROM files f JOIN folders d ON d.id = f.folder_id WHERE (d.id = ${folder.id} OR d.path @> ARRAY[${folder.id}::int]) AND f.deleted_at IS NULL)`,
      ),
    );
}

/** One condition of an If header list (RFC 4918, 10.4). */
type Condition = { not: boolean; token?: string; etag?: string };
type IfList = { resource: string | null; conditions: Condition[] };

/** Parses `If: [<resource>] (cond...) ...`; a malformed header is a 400. */
export function parseIf(header: string | undefined): IfList[] {
  if (!header) return [];
  const lists: IfList[] = [];
  let resource: string | null = null;
  let i = 0;
  const fail = () => new AppError("invalid_request", "Malformed If header");
  while (i < header.length) {
    const c = header[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === "<") {
      const end = header.indexOf(">", i);
      if (end < 0) throw fail();
      resource = header.slice(i + 1, end);
      i = end + 1;
    } else if (c === "(") {
      const end = header.indexOf(")", i);
      if (end < 0) throw fail();
      lists.push({ resource, conditions: parseConditions(header.slice(i + 1, end), fail) });
      i = end + 1;
    } else {
      throw fail();
    }
  }
  return lists;
}

function parseConditions(text: string, fail: () => Error): Condition[] {
  const out: Condition[] = [];
  const pattern = /\s*(Not\s+)?(?:<([^>]*)>|\[([^\]]*)\])\s*/giy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = pattern.exec(text))) {
    consumed = pattern.lastIndex;
    out.push({ not: Boolean(match[1]), token: match[2], etag: match[3]?.replace(/^W\//, "") });
  }
  if (consumed !== text.length || out.length === 0) throw fail();
  return out;
}

/** The lock tokens an If header submits (RFC 4918, 10.4.1: every state token named). */
export const submittedTokens = (lists: IfList[]) => new Set(lists.flatMap((l) => l.conditions.filter((c) => c.token !== undefined && !c.not).map((c) => c.token!)));

/**
 * Evaluates an If header against the request target (untagged lists) or the resources the tags
 * name: true when one list holds, each condition true (a token matching a lock covering the
 * resource, an etag equal to its ETag), with Not negating. 412 when none holds.
 */
export async function assertIfHeader(ctx: AuthedCtx, lists: IfList[], target: DavTarget): Promise<void> {
  if (lists.length === 0) return;
  const cache = new Map<string, { target: DavTarget; locks: DavLock[] }>();
  const stateOf = async (resource: string | null) => {
    const key = resource ?? "";
    if (!cache.has(key)) {
      let t = target;
      if (resource !== null) {
        const pathname = new URL(resource, "http://localhost").pathname;
        t = await resolveDavPath(ctx, davSegments(pathname));
      }
      cache.set(key, { target: t, locks: await locksOfTarget(ctx.db, t) });
    }
    return cache.get(key)!;
  };
  for (const list of lists) {
    const state = await stateOf(list.resource);
    const resource = resourceOf(state.target);
    const etag = resource ? etagOf(resource) : null;
    const holds = list.conditions.every((c) => {
      const result = c.token !== undefined ? state.locks.some((l) => l.token === c.token) : etag !== null && `"${c.etag?.replace(/^"|"$/g, "")}"` === etag;
      return c.not ? !result : result;
    });
    if (holds) return;
  }
  throw new DavError(412, "No list of the If header holds");
}

/** Every lock covering `target` must be the caller's with its token submitted (and, for a folder, every lock below it). */
export async function assertTokens(ctx: AuthedCtx, lists: IfList[], target: DavTarget): Promise<void> {
  const tokens = submittedTokens(lists);
  const held = [...(await locksOfTarget(ctx.db, target)), ...(target.kind === "folder" ? await locksBelow(ctx.db, target.folder) : [])];
  const blocking = held.filter((l) => !(tokens.has(l.token) && l.userId === ctx.actor.user.id));
  if (blocking.length > 0) throw new AppError("locked", "The resource is locked: submit its lock token in an If header", { dav: "lock-token-submitted" });
}

/** The locks a removed or moved resource held itself (a folder: with those below it). */
export async function locksRootedAt(db: DbOrTx, target: DavTarget): Promise<DavLock[]> {
  if (target.kind === "file") return db.select().from(davLocks).where(eq(davLocks.fileId, target.file.id));
  if (target.kind === "folder") return [...(await db.select().from(davLocks).where(eq(davLocks.folderId, target.folder.id))), ...(await locksBelow(db, target.folder))];
  return [];
}

/** The DAV:activelock of one lock. */
export function activeLock(lock: DavLock, rootSegments: string[], collection: boolean): string {
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.depth === -1 ? "infinity" : "0"}</D:depth>${lock.owner ? `<D:owner>${lock.owner}</D:owner>` : ""}` +
    `<D:timeout>Second-${Math.max(0, Math.round((lock.expiresAt.getTime() - Date.now()) / 1000))}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken><D:lockroot><D:href>${escapeXml(davHref(rootSegments, collection))}</D:href></D:lockroot></D:activelock>`
  );
}

/**
 * DAV:lockdiscovery of resources, by resource key (resourceKey): the locks on each itself (lock
 * roots elsewhere are not listed). Expired locks are swept once, then one statement whatever the
 * number of resources.
 */
export async function lockDiscoveries(ctx: AuthedCtx, resources: DavResource[]): Promise<Map<string, string>> {
  const { fileIds, folderIds } = idsOf(resources);
  const discovered = new Map<string, string>();
  if (fileIds.length === 0 && folderIds.length === 0) return discovered;
  await dropExpiredLocks(ctx.db);
  const locks = await ctx.db
    .select()
    .from(davLocks)
    .where(or(fileIds.length ? idIn(davLocks.fileId, fileIds) : undefined, folderIds.length ? idIn(davLocks.folderId, folderIds) : undefined))
    .orderBy(davLocks.id);
  const byKey = new Map(resources.flatMap((r) => (resourceKey(r) ? [[resourceKey(r)!, r] as const] : [])));
  for (const lock of locks) {
    const key = rowKey(lock);
    const resource = byKey.get(key);
    if (resource) discovered.set(key, (discovered.get(key) ?? "") + activeLock(lock, resource.segments, resource.kind !== "file"));
  }
  return discovered;
}
