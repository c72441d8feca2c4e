import "server-only";
import { TEST_CODE_HEADER, TEST_REASON_HEADER } from "@/lib/contracts/identity-providers";
import type { TestFailure } from "./test-identity-provider";

/** A header value from a reason of any text: printable ASCII on one line, bounded (the full text is under ?details=1). */
function headerValue(text: string): string {
  return text.replace(/[^\x20-\x7e]+/g, " ").trim().slice(0, 500);
}

/**
 * POST /identity/provider/test's answer: the contract's bare `true` or `false` (a client testing the
 * body's truth reads a failure as one), the reason of a failure in headers; with ?details=1 the
 * outcome as an object, for the console to say why.
 */
export function testAnswer(outcome: true | TestFailure, details: boolean): Response {
  if (details) return Response.json(outcome === true ? { result: true } : outcome, { headers: { "Cache-Control": "no-store" } });
  if (outcome === true) return Response.json(true, { headers: { "Cache-Control": "no-store" } });
  return Response.json(false, { headers: { "Cache-Control": "no-store", [TEST_REASON_HEADER]: headerValue(outcome.details.reason), [TEST_CODE_HEADER]: outcome.code } });
}
