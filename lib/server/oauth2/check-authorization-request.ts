import "server-only";
import type { DbOrTx } from "@/db";
import { getPlatformConfig } from "../config/platform-config";
import { findApp } from "./app-access";
import { grantableScope } from "./oauth2-model";

/** What the consent page posts back to POST /oauth2/authorize, unchanged. */
export type AuthorizationParams = {
  client_id: string;
  redirect_uri: string;
  response_type: string;
  scope: string;
  state?: string;
  code_challenge: string;
  code_challenge_method: string;
};

export type AuthorizationCheck =
  | { kind: "invalid"; reason: "disabled" | "unknown_client" | "not_code_client" | "redirect_uri" }
  | { kind: "redirect"; to: string }
  | { kind: "consent"; app: { name: string; description: string | null; editor: string | null; editorUrl: string | null }; scopes: string[]; params: AuthorizationParams };

/**
 * GET /oauth2/authorize, before the consent screen: the checks RFC 6749 4.1.2.1 orders. An
 * unknown client or a redirect URI that is not registered is shown here and never redirected to;
 * the other faults go back to the application's redirect URI with the RFC error. POST
 * /oauth2/authorize checks everything again through the library.
 */
export async function checkAuthorizationRequest(db: DbOrTx, query: Record<string, string | string[] | undefined>): Promise<AuthorizationCheck> {
  if (!(await getPlatformConfig(db)).features.oauth2) return { kind: "invalid", reason: "disabled" };
  const one = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : undefined);
  const clientId = one("client_id");
  const app = clientId ? await findApp(db, clientId) : undefined;
  if (!app) return { kind: "invalid", reason: "unknown_client" };
  if (app.type !== 0) return { kind: "invalid", reason: "not_code_client" };
  const asked = one("redirect_uri");
  // Without redirect_uri, only an application with a single registered one has a place to go back to.
  const redirectUri = asked ?? (app.callbackUris.length === 1 ? app.callbackUris[0] : undefined);
  if (!redirectUri || !app.callbackUris.includes(redirectUri)) return { kind: "invalid", reason: "redirect_uri" };

  const state = one("state");
  const back = (error: string, description: string) => {
    const url = new URL(redirectUri);
    url.searchParams.set("error", error);
    url.searchParams.set("error_description", description);
    if (state) url.searchParams.set("state", state);
    return { kind: "redirect", to: url.toString() } as const;
  };
  if (one("response_type") !== "code") return back("unsupported_response_type", "Only response_type=code is supported");
  const challenge = one("code_challenge");
  if (!challenge || one("code_challenge_method") !== "S256" || !/^[A-Za-z0-9._~-]{43,128}$/.test(challenge)) {
    return back("invalid_request", "PKCE is required: code_challenge with code_challenge_method=S256");
  }
  const requested = one("scope")?.split(/\s+/).filter(Boolean);
  const scopes = grantableScope(app.scope, requested);
  if (!scopes) return back("invalid_scope", "The requested scope is invalid, unknown, or beyond what the application was registered with");
  return {
    kind: "consent",
    app: { name: app.name, description: app.description, editor: app.editor, editorUrl: app.editorUrl },
    scopes,
    params: { client_id: app.clientId, redirect_uri: redirectUri, response_type: "code", scope: scopes.join(" "), state, code_challenge: challenge, code_challenge_method: "S256" },
  };
}
