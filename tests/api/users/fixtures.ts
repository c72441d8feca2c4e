import { eq } from "drizzle-orm";
import { getDb, type Db, type Tx } from "@/db";
import { groupMembers, type User } from "@/db/schema";
import type { AuthedCtx } from "@/lib/server/context";
import { createTestGroup, createTestUser } from "../../helpers/factories";

/**
 * For `beforeAll`: a fresh PGlite boots and migrates in seconds (far more on a busy machine), so
 * opening the database belongs in a hook, whose timeout is longer than a test's.
 */
export async function openDatabase() {
  await getDb();
}

/** A manager (role 4) who manages a fresh group holding one regular user. */
export async function createManagedTeam() {
  const manager = await createTestUser({ role: 4 });
  const member = await createTestUser();
  const group = await createTestGroup({ members: [member.id], managers: [manager.id] });
  return { manager, member, group };
}

export { latestLog } from "../../helpers/factories";

export async function memberGroupIds(userId: number) {
  const db = await getDb();
  const rows = await db.select({ id: groupMembers.groupId }).from(groupMembers).where(eq(groupMembers.userId, userId));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

class Rollback extends Error {}

/**
 * Runs `fn` in a transaction that is always rolled back, for rules that depend on the whole
 * platform (the last administrator, platform options): the tests share one database, so such a
 * state can only be staged where no other test sees it. Repeatable read keeps rows that other
 * tests commit meanwhile out of the snapshot; a serialization failure against them is retried.
 */
export async function inRolledBackTransaction(fn: (tx: Tx) => Promise<void>) {
  const db = await getDb();
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction(
        async (tx) => {
          await fn(tx);
          throw new Rollback();
        },
        { isolationLevel: "repeatable read" },
      );
    } catch (error) {
      if (error instanceof Rollback) return;
      if (attempt < 5 && /could not serialize|deadlock/i.test(String((error as { cause?: unknown }).cause ?? error))) continue;
      throw error;
    }
  }
}

/** A service context acting as `user` on `tx` (services nest their own transaction as a savepoint). */
export const serviceCtx = (tx: Tx, user: User): AuthedCtx => ({
  db: tx as unknown as Db,
  actor: { user, realUser: user, sessionId: null },
  request: { ip: "127.0.0.1", userAgent: "vitest" },
});
