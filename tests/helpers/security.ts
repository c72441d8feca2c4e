import { expectError, call, type CallOptions } from "./http";
import { createExpiredToken, createTestUser } from "./factories";
import type { Handler } from "@/lib/server/http/route";

/**
 * The checks every authenticated route gets for free: no token, an unknown token and an
 * expired token are 401 with the contract's error body.
 */
export async function expectAuthRequired(handler: Handler, options: CallOptions) {
  expectError(await call(handler, { ...options, token: null }), 401, "unauthorized");
  expectError(await call(handler, { ...options, token: "not-a-real-token" }), 401, "unauthorized");
  const someone = await createTestUser();
  expectError(await call(handler, { ...options, token: await createExpiredToken(someone.id) }), 401, "unauthorized");
}

/** A valid token of a user who lacks the role or right gets `status` (403 unless stated). */
export async function expectRefusedFor(token: string, handler: Handler, options: CallOptions, status = 403) {
  expectError(await call(handler, { ...options, token }), status);
}
