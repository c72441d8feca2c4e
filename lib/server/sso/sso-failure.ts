import "server-only";
import { writeLog } from "../audit/write-log";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { redirect } from "./sso-http";

/** Why a single sign-in was refused; the sign-in page shows each in words (components/auth/sso-sign-in.tsx). */
export const SSO_FAILURES = [
  /** No flow for this state or ticket, expired, used, or started in another browser. */
  "sso_state",
  /** The ID token's nonce is not the one this sign-in sent. */
  "sso_nonce",
  /** The provider refused, could not be reached, or answered something invalid. */
  "sso_provider",
  /** The SAML response is not acceptable: unsigned, wrongly signed, expired, for another audience. */
  "sso_assertion",
  /** This SAML assertion was already used. */
  "sso_replay",
  /** A SAML response nobody asked for, from a provider that does not allow IdP-initiated sign-in. */
  "sso_idp_initiated",
  /** No account matches and the provider does not create accounts. */
  "sso_no_account",
  /** The matching account belongs to another identity, or several accounts match. */
  "sso_account_conflict",
  /**
   * An account with this address or login exists and is not linked automatically (an
   * administrator or manager, a password or a second factor, a login rather than a verified
   * address): its owner signs in and connects the provider from the account page.
   */
  "sso_account_exists",
] as const;
export type SsoFailureReason = (typeof SSO_FAILURES)[number];

export const ssoFailure = (reason: SsoFailureReason, message: string) => new AppError("unauthorized", message, { reason });

/** The reason the sign-in page is given for a failure (the codes of next-auth-options.ts where they exist). */
export function failureReason(error: unknown): string {
  if (!(error instanceof AppError)) return "internal_error";
  const reason = (error.details as { reason?: unknown } | undefined)?.reason;
  if (error.code === "unauthorized") {
    if ((SSO_FAILURES as readonly unknown[]).includes(reason)) return reason as string;
    if (reason === "expired") return "account_expired";
    if (reason === "inactive" || reason === "deleted") return "account_inactive";
    return "sso_provider";
  }
  if (error.code === "forbidden") return "connection_not_allowed";
  if (error.code === "not_found") return "sso_unavailable";
  if (error.code === "too_many_requests") return "too_many_requests";
  return "internal_error";
}

/**
 * A refused sign-in, for a browser: logged, then back to the sign-in page (or, for a provider
 * being connected from the account page, to that page) with the reason: a page a person can
 * read, rather than a JSON body. Nothing else about the failure is shown there.
 */
export async function signInFailed(ctx: Ctx, providerId: number, error: unknown, page: "/login" | "/account" = "/login"): Promise<Response> {
  const reason = failureReason(error);
  if (reason === "internal_error") console.error("[coffre] SSO sign-in failed:", error);
  const message = error instanceof Error && error instanceof AppError ? error.message : "Internal error";
  try {
    await writeLog(ctx.db, { actor: null, request: ctx.request }, { type: "ADMLLOG_LOGIN_FAILED", ok: false, message: `${page === "/account" ? "Connecting a sign-in provider" : "Single sign-on"} refused (${reason}): ${message}`, objectType: "identity_provider", objectId: providerId });
  } catch (logError) {
    console.error("[coffre] SSO sign-in failure not logged:", logError);
  }
  return redirect(`${page}?sso_error=${encodeURIComponent(reason)}`);
}
