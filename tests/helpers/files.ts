import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { getDb } from "@/db";
import { folders, rights, type Folder, type RightRow, type User } from "@/db/schema";
import type { AuthedCtx } from "@/lib/server/context";
import { commitUpload, type CommitResult } from "@/lib/server/files/commit-upload";
import type { Rights } from "@/lib/server/rights/rights";
import { getBlobStore } from "@/lib/storage";

/** The context a service receives for `user`, as if they had called a route themselves. */
export async function ctxFor(user: User): Promise<AuthedCtx> {
  return { db: await getDb(), actor: { user, realUser: user, sessionId: null }, request: { ip: "127.0.0.1", userAgent: "vitest" } };
}

/**
 * A live folder named `name` under `parentId` (0 = company top level), written directly with the
 * same invariants as the create service: path from the parent, space inherited, owner of the
 * parent's tree (the creator at the top level). No rights are checked: tests set them up.
 */
export async function createFolder(user: User, parentId: number, name: string): Promise<Folder> {
  const db = await getDb();
  const parent = parentId ? (await db.select().from(folders).where(eq(folders.id, parentId)))[0] : undefined;
  if (parentId && !parent) throw new Error(`createFolder: parent ${parentId} does not exist`);
  const [folder] = await db
    .insert(folders)
    .values({
      name,
      parentId: parent?.id ?? null,
      path: parent ? [...parent.path, parent.id] : [],
      ownerId: parent?.ownerId ?? user.id,
      space: parent?.space ?? "company",
      quota: parent ? -1 : 0,
    })
    .returning();
  return folder;
}

/** Uploads `text` as `name` into a folder through commitUpload (rights, quotas, versions apply). */
export async function uploadText(user: User, folderId: number, name: string, text: string): Promise<CommitResult> {
  const blob = await getBlobStore().put(Readable.from([Buffer.from(text)]));
  return commitUpload(await ctxFor(user), { folderId, name, blob });
}

/**
 * Gives `targetId` (a user or group) a right on a folder; omitted flags are false, except
 * `browse`, which is true unless given (any right without browse means nothing). Replaces an
 * existing right of the same target on that folder.
 */
export async function grantRight(folderId: number, targetId: number, flags: Partial<Rights>): Promise<RightRow> {
  const db = await getDb();
  const values = {
    browse: flags.browse ?? true,
    read: flags.read ?? false,
    download: flags.download ?? false,
    write: flags.write ?? false,
    edit: flags.edit ?? false,
    delete: flags.delete ?? false,
    share: flags.share ?? false,
  };
  const [row] = await db
    .insert(rights)
    .values({ folderId, targetId, ...values })
    .onConflictDoUpdate({ target: [rights.folderId, rights.targetId], set: values })
    .returning();
  return row;
}

/** Every right but the named ones: "a user lacking exactly that right". */
export function allRightsBut(...missing: (keyof Rights)[]): Partial<Rights> {
  const all: Rights = { browse: true, read: true, download: true, write: true, edit: true, delete: true, share: true };
  for (const name of missing) all[name] = false;
  return all;
}
