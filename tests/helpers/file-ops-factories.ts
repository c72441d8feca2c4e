import { and, asc, eq, isNull } from "drizzle-orm";
import { getDb, type Db, type Tx } from "@/db";
import { fileLocks, fileVersions, files, folders, platformConfig, trashItems, type Folder, type User } from "@/db/schema";
import type { AuthedCtx } from "@/lib/server/context";
import { forgetCachedConfig, readStoredConfig } from "@/lib/server/config/platform-config";
import { createTestUser, unique, type TestUser } from "./factories";
import { createFolder, uploadText } from "./files";

/**
 * For `beforeAll(openDatabase, OPEN_TIMEOUT)`: a fresh PGlite boots and migrates in seconds, far
 * more on a busy machine, which must not eat the first test's time.
 */
export async function openDatabase() {
  await getDb();
}
export const OPEN_TIMEOUT = 180_000;

/**
 * The usual stage of a file test: `owner` has a folder in their private space holding `file`
 * (one version of "hello"), `other` is a fresh user with no right on it.
 */
export async function createFileScene(options: { name?: string; text?: string } = {}) {
  const owner = await createTestUser();
  const other = await createTestUser();
  const folder = await createFolder(owner, owner.privateRootId!, unique("folder_"));
  const upload = await uploadText(owner, folder.id, options.name ?? `${unique("doc_")}.txt`, options.text ?? "hello");
  return { owner, other, folder, file: upload.file, version: upload.version };
}

/** A second folder of `user`'s private space (a move or restore destination). */
export const createOwnFolder = (user: TestUser, name = unique("dest_")): Promise<Folder> => createFolder(user, user.privateRootId!, name);

export async function reloadFile(fileId: number) {
  const db = await getDb();
  const [file] = await db.select().from(files).where(eq(files.id, fileId));
  return file;
}

export async function liveVersionIds(fileId: number): Promise<number[]> {
  const db = await getDb();
  const found = await db
    .select({ id: fileVersions.id })
    .from(fileVersions)
    .where(and(eq(fileVersions.fileId, fileId), isNull(fileVersions.deletedAt)))
    .orderBy(asc(fileVersions.number));
  return found.map((v) => v.id);
}

export async function reloadFolder(folderId: number) {
  const db = await getDb();
  const [folder] = await db.select().from(folders).where(eq(folders.id, folderId));
  return folder;
}

export async function findTrashItem(id: number) {
  const db = await getDb();
  const [item] = await db.select().from(trashItems).where(eq(trashItems.id, id));
  return item;
}

/** Locks a file for `user` directly (the lock route is under test elsewhere). */
export async function lockAs(user: Pick<User, "id">, fileId: number) {
  const db = await getDb();
  await db.insert(fileLocks).values({ fileId, ownerId: user.id }).onConflictDoUpdate({ target: fileLocks.fileId, set: { ownerId: user.id } });
}

export async function removeLock(fileId: number) {
  const db = await getDb();
  await db.delete(fileLocks).where(eq(fileLocks.fileId, fileId));
}

export { latestLog } from "./factories";

class Rollback extends Error {}

/**
 * Runs `fn` in a transaction that is always rolled back: platform-wide state (options, every
 * user's trash) can only be staged where the tests running in parallel never see it.
 */
export async function inRolledBackTransaction(fn: (tx: Tx) => Promise<void>) {
  const db = await getDb();
  forgetCachedConfig();
  try {
    await db.transaction(async (tx) => {
      await fn(tx);
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  } finally {
    // The configuration read inside the transaction must not outlive it in this process's cache.
    forgetCachedConfig();
  }
}

/** Changes platform options inside a transaction of inRolledBackTransaction. */
export async function setConfigIn(tx: Tx, patch: Record<string, unknown>) {
  const current = await readStoredConfig(tx);
  for (const [key, value] of Object.entries(patch)) {
    const merged = typeof value === "object" && value !== null ? { ...(current as unknown as Record<string, object>)[key], ...value } : value;
    await tx.insert(platformConfig).values({ key, value: merged }).onConflictDoUpdate({ target: platformConfig.key, set: { value: merged } });
  }
  forgetCachedConfig();
}

/** A service context acting as `user` on `tx` (services nest their transactions as savepoints). */
export const ctxIn = (tx: Tx, user: User): AuthedCtx => ({
  db: tx as unknown as Db,
  actor: { user, realUser: user, sessionId: null },
  request: { ip: "127.0.0.1", userAgent: "vitest" },
});
