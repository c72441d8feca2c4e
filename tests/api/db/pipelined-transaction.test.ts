import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, getDriver, rows, type DbOrTx } from "@/db";
import { pipelinedTransaction } from "@/db/pipelined-transaction";
import { logs } from "@/db/schema";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { countQueries } from "../../helpers/query-count";

beforeAll(openDatabase, OPEN_TIMEOUT);

// db/pipelined-transaction.ts: BEGIN goes out with the first statements, COMMIT with the last
// (commitUpload's two round trips). What must hold whatever the batching: all or nothing, the
// real failure reported, nothing ever run outside the transaction, the connection back clean.

const mark = () => `pipelined ${randomUUID()}`;
const insertLog = (db: DbOrTx, message: string) => db.insert(logs).values({ message, type: "ADMLLOG_INSERT" }).execute();
const logsNamed = async (message: string) => (await getDb()).select().from(logs).where(eq(logs.message, message));

/**
 * Connections of this database left inside a transaction (PostgreSQL). Other work of this worker
 * (a job, a server of an earlier file winding down) may be between two statements of its own
 * transaction at the moment of asking: a connection leaked stays so, theirs end. So the count is
 * taken again for a few seconds, and what remains is what was left behind.
 */
async function idleInTransaction(): Promise<number> {
  const db = await getDb();
  const count = async () => rows<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`))[0].n;
  let n = await count();
  for (let tries = 0; n > 0 && tries < 30; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    n = await count();
  }
  return n;
}

describe("pipelinedTransaction", () => {
  it("reads, then writes with COMMIT: two round trips on PostgreSQL, the writes visible after", async () => {
    const db = await getDb();
    const readThenWrite = (message: string) =>
      pipelinedTransaction(db, async (tx, commitWith) => {
        const [{ n }] = rows<{ n: number }>(await tx.execute(sql`SELECT count(*)::int AS n FROM logs WHERE message = ${message}`));
        await commitWith([insertLog(tx, message), insertLog(tx, message)] as const);
        return n;
      });
    // Every pooled connection prepares the statements first (an unprepared one costs a round trip more).
    for (let round = 0; round < 2; round++) await Promise.all(Array.from({ length: 4 }, () => readThenWrite(mark())));
    const message = mark();
    const { result, roundTrips } = await countQueries(() => readThenWrite(message));
    expect(result).toBe(0);
    expect(await logsNamed(message)).toHaveLength(2);
    if ((await getDriver()) === "postgres") expect(roundTrips).toBe(2);
  });

  it("rolls back every write when one of the last fails, and reports that failure, not the statements refused after it", async () => {
    const db = await getDb();
    const message = mark();
    const failing = pipelinedTransaction(db, async (tx, commitWith) => {
      await insertLog(tx, message);
      return commitWith([insertLog(tx, message), tx.execute(sql`SELECT 1 / (SELECT count(*) FROM logs WHERE message = 'never written')`).execute(), insertLog(tx, message)] as const);
    });
    await expect(failing).rejects.toMatchObject({ cause: { code: "22012" } });
    expect(await logsNamed(message)).toHaveLength(0);
  });

  it("rolls back when the work fails before its last statements", async () => {
    const db = await getDb();
    const message = mark();
    const failing = pipelinedTransaction(db, async (tx) => {
      await insertLog(tx, message);
      throw new Error("decided against it");
    });
    await expect(failing).rejects.toThrow("decided against it");
    expect(await logsNamed(message)).toHaveLength(0);
  });

  it("refuses a statement sent after COMMIT instead of running it outside the transaction (PostgreSQL)", async () => {
    if ((await getDriver()) !== "postgres") return;
    const db = await getDb();
    const message = mark();
    const late = mark();
    const failing = pipelinedTransaction(db, async (tx, commitWith) => {
      // Sent once a round trip is over: after the COMMIT that went out with the first statement.
      const straggler = new Promise((resolve) => setTimeout(resolve, 20)).then(() => insertLog(tx, late));
      return commitWith([insertLog(tx, message), straggler] as const);
    });
    await expect(failing).rejects.toMatchObject({ cause: { message: expect.stringMatching(/after its transaction ended/) } });
    expect(await logsNamed(message)).toHaveLength(1);
    expect(await logsNamed(late)).toHaveLength(0);
  });

  it("gives every connection back outside any transaction, after successes and failures alike", async () => {
    const db = await getDb();
    const message = mark();
    await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        pipelinedTransaction(db, async (tx, commitWith) => {
          if (i % 3 === 0) throw new Error("refused");
          await tx.execute(sql`SELECT 1`);
          return commitWith([insertLog(tx, message), i % 3 === 1 ? tx.execute(sql`SELECT 1 / 0`).execute() : insertLog(tx, message)] as const);
        }),
      ),
    );
    expect(await logsNamed(message)).toHaveLength(8);
    if ((await getDriver()) === "postgres") expect(await idleInTransaction()).toBe(0);
  });

  it("survives its connection being cut mid-transaction: an error, nothing written, the pool still answering (PostgreSQL)", async () => {
    if ((await getDriver()) !== "postgres") return;
    const db = await getDb();
    const message = mark();
    const cut = pipelinedTransaction(db, async (tx, commitWith) => {
      await insertLog(tx, message);
      const [{ pid }] = rows<{ pid: number }>(await tx.execute(sql`SELECT pg_backend_pid() AS pid`));
      // Cut while the last statements are under way.
      setTimeout(() => void db.execute(sql`SELECT pg_terminate_backend(${pid}::int)`).catch(() => {}), 100);
      return commitWith([tx.execute(sql`SELECT pg_sleep(2)`).execute(), insertLog(tx, message)] as const);
    });
    await expect(cut).rejects.toBeInstanceOf(Error);
    // The socket's close follows the server's last word. postgres.js may hand that word to the
    // first query of the reopened connection too: one failure is its, not the pool's state.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const settled = await Promise.allSettled(Array.from({ length: 6 }, () => db.execute(sql`SELECT 1`)));
    expect(settled.filter((r) => r.status === "rejected").length).toBeLessThanOrEqual(1);
    // Every pooled connection is used again (the cut one reopened), in and out of pipelined transactions.
    for (let round = 0; round < 3; round++) {
      await Promise.all(Array.from({ length: 6 }, () => db.execute(sql`SELECT 1`)));
      await Promise.all(Array.from({ length: 4 }, () => pipelinedTransaction(db, async (tx, commitWith) => commitWith([insertLog(tx, mark())] as const))));
    }
    expect(await logsNamed(message)).toHaveLength(0);
  });

  it("refuses the next statement when its connection closed while nothing was under way on it, without crashing (PostgreSQL)", async () => {
    if ((await getDriver()) !== "postgres") return;
    const db = await getDb();
    const message = mark();
    const cut = pipelinedTransaction(db, async (tx, commitWith) => {
      await insertLog(tx, message);
      const [{ pid }] = rows<{ pid: number }>(await tx.execute(sql`SELECT pg_backend_pid() AS pid`));
      await db.execute(sql`SELECT pg_terminate_backend(${pid}::int)`);
      // The socket's close has been seen by the driver before the next statement is sent (an idle
      // connection the server ended: a restart, an administrator, idle_session_timeout).
      await new Promise((resolve) => setTimeout(resolve, 300));
      return commitWith([insertLog(tx, message), insertLog(tx, message)] as const);
    });
    await expect(cut).rejects.toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const settled = await Promise.allSettled(Array.from({ length: 12 }, () => db.execute(sql`SELECT 1`)));
    expect(settled.filter((r) => r.status === "rejected").length).toBeLessThanOrEqual(1);
    // The pool keeps all its connections: as many pipelined transactions as it has connections
    // are under way at once (a reservation left behind would keep the last one waiting).
    const size = Number(process.env.DATABASE_POOL_SIZE ?? 10);
    let entered = 0;
    let allIn: () => void = () => {};
    const together = new Promise<void>((resolve) => (allIn = resolve));
    const held = Promise.all(
      Array.from({ length: size }, () =>
        pipelinedTransaction(db, async (tx, commitWith) => {
          await tx.execute(sql`SELECT 1`);
          if (++entered === size) allIn();
          await together;
          return commitWith([insertLog(tx, mark())] as const);
        }),
      ),
    );
    const timedOut = new Promise((resolve) => setTimeout(() => resolve("timed out"), 10_000));
    expect(await Promise.race([together.then(() => "all in"), timedOut])).toBe("all in");
    await held;
    expect(await logsNamed(message)).toHaveLength(0);
  });
});
