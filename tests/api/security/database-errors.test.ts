import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { toErrorResponse } from "@/lib/server/errors";
import { OPEN_TIMEOUT, openDatabase } from "../folders/fixtures";

// Issue 11, finding 10: a value PostgreSQL cannot store is the caller's fault (400), and neither
// the query nor its parameters reach the log.
beforeAll(openDatabase, OPEN_TIMEOUT);
afterEach(() => vi.restoreAllMocks());

async function failureOf(query: Parameters<Awaited<ReturnType<typeof getDb>>["execute"]>[0]): Promise<unknown> {
  const db = await getDb();
  try {
    await db.execute(query);
  } catch (error) {
    return error;
  }
  throw new Error("the query was expected to fail");
}

describe("invalid values from the database", () => {
  it.each([
    ["a NUL in text", sql`SELECT ${"secret\u0000value"}::text`],
    ["text that is not a number", sql`SELECT ${"secret-abc"}::integer`],
    ["a number out of range", sql`SELECT ${"99999999999"}::integer`],
  ])("maps %s to a 400 without logging the query", async (_label, query) => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = toErrorResponse(await failureOf(query));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe("invalid_request");
    expect(JSON.stringify(body)).not.toContain("secret");
    expect(logged).not.toHaveBeenCalled();
  });
});
