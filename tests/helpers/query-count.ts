import { getDb, getDriver } from "@/db";

/**
 * `params[i]` are the parameters of `statements[i]`. `roundTrips`: the groups of statements sent
 * in one turn of the event loop (postgres.js writes what was issued together at once, on the
 * connections it was given to, and answers come back in a later turn), that is how many times the
 * call waits for the database, one after the other. `batches[i]` is the group of `statements[i]`.
 * A statement that is not yet prepared on its connection costs a hidden round trip more (its
 * parameter types are asked first): warm the call up before counting.
 */
export type Counted<T> = { result: T; count: number; statements: string[]; params: unknown[][]; roundTrips: number; batches: number[] };

const ARRAY_TYPES = /^\s*select b\.oid, b\.typarray\s+from pg_catalog\.pg_type a/;

type PostgresClient = { options: { debug?: unknown } };
type Logger = { logQuery: (query: string, params: unknown[]) => void };
type DrizzleSession = { logger: Logger; options: { logger?: Logger } };

/**
 * Runs `fn` and counts the statements it sends to the database. On PostgreSQL this is postgres.js's
 * `debug` hook, called for every statement written to any pooled connection (BEGIN and COMMIT
 * included); on PGlite, drizzle's logger (see below). Tests in a file run one after another, so
 * nothing else is counted unless a previous test left work running in the background.
 */
export async function countQueries<T>(fn: () => Promise<T>): Promise<Counted<T>> {
  const db = await getDb();
  const statements: string[] = [];
  const params: unknown[][] = [];
  const batches: number[] = [];
  let batch = -1;
  let open = false;
  const record = (query: string, values: unknown[] = []) => {
    statements.push(query);
    params.push(values);
    // Everything issued before the check phase goes out together (postgres.js flushes in a setImmediate).
    if (!open) {
      open = true;
      batch++;
      setImmediate(() => (open = false));
    }
    batches.push(batch);
  };
  let restore: () => void;
  if ((await getDriver()) === "postgres") {
    const client = (db as unknown as { $client: PostgresClient }).$client;
    const previous = client.options.debug;
    // A connection opened meanwhile first reads the array types (postgres.js `fetch_types`): that is
    // the pool warming up, not the route's work.
    client.options.debug = (_connection: number, query: string, values: unknown[]) => void (ARRAY_TYPES.test(query) || record(query, values));
    restore = () => void (client.options.debug = previous);
  } else {
    // Statements prepared beforehand (db/prepared.ts) keep the session's logger object: its method
    // is replaced in place. Transactions open sessions with the options' logger: that is swapped.
    const session = (db as unknown as { session: DrizzleSession }).session;
    const logger = session.logger as Partial<Logger>;
    const own = Object.getOwnPropertyDescriptor(logger, "logQuery");
    const previous = session.options.logger;
    logger.logQuery = (query, values) => record(query, values);
    session.options.logger = { logQuery: (query, values) => record(query, values) };
    restore = () => {
      if (own) Object.defineProperty(logger, "logQuery", own);
      else delete logger.logQuery;
      session.options.logger = previous;
    };
  }
  try {
    const result = await fn();
    return { result, count: statements.length, statements, params, roundTrips: batch + 1, batches };
  } finally {
    restore();
  }
}

// The platform configuration is cached per process for 2 s (platform-config.ts): a reload may fall
// in any counted call on a slow machine. It is one statement whatever the route, so it is left out.
const CONFIG_RELOAD = /^select "key", "value", "updated_at" from "platform_config"$/;

/** The statements of a counted call but a reload of the platform configuration. */
export const routeWork = (statements: string[]) => statements.filter((s) => !CONFIG_RELOAD.test(s.trim()));

/** The round trips of a counted call but one that only reloaded the platform configuration. */
export const routeRoundTrips = ({ statements, batches }: Pick<Counted<unknown>, "statements" | "batches">) =>
  new Set(batches.filter((_, i) => !CONFIG_RELOAD.test(statements[i].trim()))).size;
