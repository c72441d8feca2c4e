import "server-only";
import type { z } from "zod";
import { AppError } from "../errors";

/** What an operation answers on success: one schema for every 2xx JSON answer, or one per status where they differ. */
export type ResponseSpec = z.ZodType | { [status: number]: z.ZodType };

/**
 * Whether answers are checked against their schemas (issue 27): under vitest and `next dev`, never
 * in production, where this constant is false (Next inlines NODE_ENV) and no answer is parsed twice.
 */
export const CHECK_RESPONSES = process.env.NODE_ENV === "development" || process.env.VITEST === "true";

/**
 * Parses a service's 2xx JSON answer (its result, or a JSON Response such as created()'s 201) by the
 * operation's response schema, in the form the client receives (JSON.stringify: dates as strings,
 * undefined fields absent). A mismatch is a 500 `response_mismatch` naming the operation and zod's
 * issue paths, logged, so the test that made the call fails on its status.
 */
export async function checkResponse(spec: ResponseSpec | undefined, result: unknown, method: string, pathname: string): Promise<void> {
  if (!spec || result === undefined || result === null) return;
  let status = 200;
  let json: unknown;
  if (result instanceof Response) {
    if (result.status < 200 || result.status > 299 || !/json/.test(result.headers.get("content-type") ?? "")) return;
    status = result.status;
    json = await result.clone().json();
  } else {
    json = JSON.parse(JSON.stringify(result));
  }
  const schema = isSchema(spec) ? spec : spec[status];
  const route = `${method} ${pathname}`;
  if (!schema) return mismatch(route, status, [{ path: "", message: `no response schema for status ${status}` }]);
  const parsed = schema.safeParse(json);
  if (!parsed.success) mismatch(route, status, parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
}

function isSchema(spec: ResponseSpec): spec is z.ZodType {
  return typeof (spec as z.ZodType).safeParse === "function";
}

function mismatch(route: string, status: number, issues: { path: string; message: string }[]): never {
  const where = issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ");
  console.error(`[response check] ${route} answered ${status} outside its schema: ${where}`);
  throw new AppError("response_mismatch", `The answer of ${route} (${status}) does not match its schema: ${where}`, { route, status, issues });
}
