import "server-only";
import { is, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { PostgresJsSession, PostgresJsTransaction } from "drizzle-orm/postgres-js/session";
import type { ReservedSql, Sql } from "postgres";
import { getDriver, preparing, type DbOrTx, type Tx } from "./index";

/** The results of statements sent together, in their order. */
export type Settled<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

/**
 * Ends the transaction with its last statements: COMMIT goes out with them, and the results come
 * back once it is done. None of them may wait for anything before it is sent (a round trip, a
 * file), and nothing may be sent after this call.
 */
export type CommitWith = <const T extends readonly unknown[]>(last: T) => Promise<Settled<T>>;

/**
 * A transaction in as few round trips as its work allows: BEGIN goes out with the first
 * statements `work` sends, and COMMIT with the last ones, those it hands to `commitWith`. So a
 * transaction that reads, decides and writes costs two round trips, and the rows its writes lock
 * are held only until its COMMIT is done, never while this process's event loop gets round to
 * sending it (measured: concurrent uploads of one user queued behind each other's turn there,
 * on the row of their usage counter).
 *
 * On PostgreSQL it runs on a connection of its own (postgres.js `reserve()`), through a drizzle
 * transaction object built as drizzle builds its own (same dialect, schema and options). A
 * statement of `work` that reached the connection after COMMIT would run outside the transaction:
 * it is refused instead (an error, never a silent write). If `work` fails before `commitWith`, the
 * transaction is rolled back. On PGlite, in process, and inside a caller's transaction, it is an
 * ordinary transaction (a savepoint there).
 *
 * A connection the server closes while nothing is under way on it (a restart, an administrator,
 * idle_session_timeout) is noticed when the driver sees the close, and the next statement is
 * refused (see watched()): postgres.js would write it to a socket that is gone.
 */
export async function pipelinedTransaction<T>(db: DbOrTx, work: (tx: Tx, commitWith: CommitWith) => Promise<T>): Promise<T> {
  // Inside a caller's transaction, a savepoint (its COMMIT is the caller's).
  if (is(db, PgTransaction) || (await getDriver()) === "pglite") return db.transaction((tx) => work(tx, settleAll));
  const base = (db as unknown as { session: { dialect: never; schema: never; options: never } }).session;
  const connection = watched(await (db as unknown as { $client: Sql }).$client.reserve());
  // A reserved connection is not a postgres.js transaction (no savepoints): `work` never nests one.
  const session = new PostgresJsSession(preparing(connection.sql), base.dialect, base.schema, base.options);
  const tx = new PostgresJsTransaction(base.dialect, session as never, base.schema) as unknown as Tx;
  let closing: "open" | "committing" | "done" = "open";
  const commitWith: CommitWith = async (last) => {
    // Started now if not yet (a drizzle builder starts when awaited), and watched at once.
    const settled = Promise.allSettled(last);
    // None of them waits for anything before it is sent, so by the loop's next check phase each
    // has reached the connection (postgres.js writes in a setImmediate, queued after this one:
    // COMMIT joins them in the same write).
    await new Promise((resolve) => setImmediate(resolve));
    closing = "committing";
    const commit = connection.lost ? Promise.reject(connection.lost) : tx.execute(sql`COMMIT`).execute();
    connection.ended = true;
    const [results, committed] = await Promise.all([settled, commit.then(() => null, (error: unknown) => ({ error }))]);
    closing = "done";
    // A failed statement aborted the transaction: COMMIT rolled it back (PostgreSQL answers ROLLBACK).
    throwFirstFailure(results);
    if (committed) throw committed.error;
    return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as Settled<typeof last>;
  };
  try {
    // Started first, so it reaches the connection before anything `work` sends.
    const begun = tx.execute(sql`BEGIN`).execute();
    const [began, done] = await Promise.allSettled([begun, work(tx, commitWith)]);
    if (began.status === "rejected") throw began.reason;
    if (done.status === "rejected") throw done.reason;
    if (closing === "open") {
      closing = "committing";
      await tx.execute(sql`COMMIT`);
      closing = "done";
    }
    return done.value;
  } catch (error) {
    // Failed before COMMIT was sent: roll back (when a statement failed, PostgreSQL has already).
    if (closing === "open" && !connection.lost) {
      connection.ended = true;
      await connection.raw.unsafe("ROLLBACK").catch((failure: unknown) => connection.noteFailure(failure));
    }
    throw error;
  } finally {
    // A connection that closed is already back among the closed ones, where postgres.js reopens it
    // for the next query; released, it would be handed out as open, and the next write to its
    // socket would throw outside any promise (measured: the process exits).
    connection.unwatch();
    if (!connection.lost) connection.raw.release();
  }
}

/** What postgres.js hands a query's `onexecute` option: the connection it is written to. */
type DriverConnection = { onclose: ((error: unknown) => void) | null };

/**
 * A reserved connection that refuses statements once its transaction has ended or the connection
 * is lost. postgres.js writes a statement sent to a closed reserved connection to a socket that is
 * gone, from a setImmediate (an uncaught TypeError: measured, the process exits). So the loss is
 * known before the next statement is sent, twice over: every statement's failure is watched, and
 * the connection's close is (postgres.js calls the `onclose` of a connection when its socket
 * closes, as its own sql.begin() relies on; the connection is handed to the `onexecute` option
 * of each statement written to it). A close while nothing is under way fails no statement: only
 * the second way sees it.
 */
function watched(raw: ReservedSql) {
  let hooked: DriverConnection | null = null;
  const onclose = (error: unknown) => {
    hooked = null;
    state.lost ??= error ?? new Error("The database connection closed");
  };
  const onexecute = (connection: DriverConnection) => {
    if (hooked !== connection) {
      hooked = connection;
      connection.onclose = onclose;
    }
    // postgres.js goes on writing to the connection when this is true (its own default).
    return true;
  };
  const state = {
    raw,
    ended: false,
    lost: null as unknown,
    noteFailure(error: unknown) {
      if (!state.lost && isConnectionLost(error)) state.lost = error;
    },
    /** The connection goes back to the pool: its close is no longer this transaction's. */
    unwatch() {
      if (hooked?.onclose === onclose) hooked.onclose = null;
      hooked = null;
    },
    sql: new Proxy(raw as unknown as Sql, {
      get(target, property, receiver) {
        if (property !== "unsafe") return Reflect.get(target, property, receiver);
        return (...[text, parameters, options]: Parameters<Sql["unsafe"]>) => {
          if (state.lost) throw state.lost;
          if (state.ended) throw new Error(`A statement was sent after its transaction ended: ${String(text).slice(0, 80)}`);
          const query = target.unsafe(text, parameters, { ...options, onexecute } as never);
          // Watching starts the query now (postgres.js starts a query when it is first awaited), in the order sent.
          query.catch((error: unknown) => state.noteFailure(error));
          return query;
        };
      },
    }),
  };
  return state;
}

/** The connection is gone: its socket failed or closed, or the server ended the session (SQLSTATE classes 08 and 57). */
function isConnectionLost(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } })?.cause?.code ?? (error as { code?: unknown })?.code;
  return typeof code === "string" && (code.startsWith("CONNECT") || /^E[A-Z]+$/.test(code) || code.startsWith("08") || code.startsWith("57"));
}

/**
 * Waits for every statement sent together, then fails with the first failure (in the order
 * given) that is not the echo of another (25P02: the statements after a failed one are refused):
 * nothing of the transaction may still be under way (or be sent after it, outside it) once it
 * rolls back.
 */
export async function settleAll<const T extends readonly unknown[]>(work: T): Promise<Settled<T>> {
  const results = await Promise.allSettled(work);
  throwFirstFailure(results);
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as Settled<T>;
}

function throwFirstFailure(results: PromiseSettledResult<unknown>[]) {
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  const cause = failures.find((r) => !isAbortedEcho(r.reason)) ?? failures[0];
  if (cause) throw cause.reason;
}

/** "current transaction is aborted": a statement sent after the one that failed (drizzle wraps the driver's error). */
function isAbortedEcho(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
  return code === "25P02";
}
