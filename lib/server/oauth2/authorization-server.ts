import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type OAuth2Server from "@node-oauth/oauth2-server";
import { and, eq } from "drizzle-orm";
import { getDb, type Db } from "@/db";
import { oauth2AccessTokens, oauth2Grants, oauth2RefreshTokens, sessions } from "@/db/schema";
import { authenticateToken } from "../auth/authenticate";
import { SCOPES } from "@/lib/contracts/scopes";
import { hashToken } from "../auth/tokens";
import { readWebSessionToken } from "../auth/web-session";
import { getPlatformConfig } from "../config/platform-config";
import type { RequestInfo } from "../context";
import { AppError } from "../errors";
import { writeAnswer } from "../http/answer-early";
import { toWebRequest } from "../http/node-route";
import { requestInfo } from "../http/request-info";
import { appUrl } from "../mail/app-url";
import { revokeGrants } from "./app-access";
import { ACCESS_TOKEN_SECONDS, CODE_SECONDS, loadOAuth2Server, oauth2Model, REFRESH_TOKEN_SECONDS, type OAuthClient } from "./oauth2-model";

/**
 * The OAuth2 authorization server (api.md, "OAuth2"), on the Node server in front of Next
 * (architecture.md; environment.md, trap 15). The protocol is @node-oauth/oauth2-server's; this
 * file turns raw requests into its Request objects, answers RFC 8414 metadata and RFC 7009
 * revocation (which the library leaves to the host), and writes its answers back.
 * GET /oauth2/authorize is the consent page of the web app (app/oauth2/authorize/page.tsx).
 */

const FORM_LIMIT = 64 * 1024;

type Library = typeof OAuth2Server;

function server(oauth: Library, db: Db, request: RequestInfo, requestedScope?: string) {
  return new oauth({
    model: oauth2Model(db, request, requestedScope) as unknown as OAuth2Server.AuthorizationCodeModel,
    accessTokenLifetime: ACCESS_TOKEN_SECONDS,
    refreshTokenLifetime: REFRESH_TOKEN_SECONDS,
    authorizationCodeLifetime: CODE_SECONDS,
    allowEmptyState: true,
    alwaysIssueNewRefreshToken: true,
  });
}

/** GET /.well-known/oauth-authorization-server (RFC 8414). */
export async function metadataEndpoint(req: IncomingMessage, res: ServerResponse) {
  if (!(await enabled(res))) return;
  const issuer = appUrl(toWebRequest(req));
  sendJson(res, 200, {
    issuer,
    authorization_endpoint: `${issuer}/oauth2/authorize`,
    token_endpoint: `${issuer}/oauth2/token`,
    revocation_endpoint: `${issuer}/oauth2/revoke`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    scopes_supported: SCOPES,
    service_documentation: `${issuer}/docs/api`,
  });
}

/**
 * POST /oauth2/authorize: the consent page's answer (`allowed` true or false), from the signed-in
 * browser only (web session cookie, same origin). The library checks the client, the registered
 * redirect URI (refused without redirecting), the scope and PKCE, then redirects with a code or an
 * error. Asked with `Accept: application/json`, the redirect comes as `{redirect_to}`: a form
 * posted from a page whose CSP says `form-action 'self'` may not follow a redirect elsewhere.
 */
export async function authorizeEndpoint(req: IncomingMessage, res: ServerResponse) {
  if (!(await enabled(res))) return;
  const web = toWebRequest(req);
  const json = (web.headers.get("accept") ?? "").includes("application/json");
  const body = await readForm(req, res);
  if (!body) return;
  const db = await getDb();
  const info = requestInfo(web);
  let userId: number;
  try {
    if (!sameOrigin(web)) throw new AppError("forbidden", "Cross-origin request refused");
    const token = await readWebSessionToken(web);
    if (!token) throw new AppError("unauthorized", "Sign in on the web first");
    userId = (await authenticateToken(db, token, info.ip)).user.id;
  } catch (error) {
    const e = error instanceof AppError ? error : new AppError("unauthorized", "Sign in on the web first");
    sendJson(res, e.status, { error: e.code === "forbidden" ? "access_denied" : "login_required", error_description: e.message });
    return;
  }
  const oauth = await loadOAuth2Server();
  const request = libraryRequest(oauth, req, body, new URL(web.url).searchParams);
  const response = new oauth.Response();
  try {
    await server(oauth, db, info).authorize(request, response, { authenticateHandler: { handle: () => ({ id: userId }) } });
  } catch (error) {
    const location = response.get("location") as string | undefined;
    if (!location) {
      sendOAuthError(oauth, res, error);
      return;
    }
  }
  const location = response.get("location") as string;
  if (json) sendJson(res, 200, { redirect_to: location });
  else res.writeHead(303, { Location: location, "Cache-Control": "no-store" }).end();
}

/** POST /oauth2/token: authorization_code (PKCE S256), refresh_token (rotation), client_credentials (type 1). */
export async function tokenEndpoint(req: IncomingMessage, res: ServerResponse) {
  if (!(await enabled(res))) return;
  const body = await readForm(req, res);
  if (!body) return;
  const web = toWebRequest(req);
  const oauth = await loadOAuth2Server();
  const request = libraryRequest(oauth, req, body, new URLSearchParams());
  const response = new oauth.Response();
  try {
    await server(oauth, await getDb(), requestInfo(web), body.scope).token(request, response);
    sendJson(res, 200, response.body, { Pragma: "no-cache" });
  } catch (error) {
    sendOAuthError(oauth, res, error, response.get("www-authenticate") as string | undefined);
  }
}

/**
 * POST /oauth2/revoke (RFC 7009): the client authenticates; an access token of its own ends alone,
 * a refresh token ends its whole grant. An unknown token, or another client's, is a 200 that
 * changes nothing (RFC 7009 2.2).
 */
export async function revokeEndpoint(req: IncomingMessage, res: ServerResponse) {
  if (!(await enabled(res))) return;
  const body = await readForm(req, res);
  if (!body) return;
  const db = await getDb();
  const web = toWebRequest(req);
  const credentials = clientCredentials(web, body);
  const model = oauth2Model(db, requestInfo(web));
  const client = credentials ? ((await model.getClient(credentials.id, credentials.secret)) as OAuthClient | null) : null;
  if (!client) {
    sendJson(res, 401, { error: "invalid_client", error_description: "Invalid client: client is invalid" }, web.headers.get("authorization") ? { "WWW-Authenticate": 'Basic realm="Service"' } : {});
    return;
  }
  const token = body.token;
  if (typeof token !== "string" || token === "") {
    sendJson(res, 400, { error: "invalid_request", error_description: "Missing parameter: `token`" });
    return;
  }
  const hash = hashToken(token);
  await db.transaction(async (tx) => {
    const [access] = await tx
      .select({ sessionId: sessions.id })
      .from(sessions)
      .innerJoin(oauth2AccessTokens, eq(oauth2AccessTokens.sessionId, sessions.id))
      .innerJoin(oauth2Grants, eq(oauth2Grants.id, oauth2AccessTokens.grantId))
      .where(and(eq(sessions.tokenHash, hash), eq(oauth2Grants.appId, client.app.id)))
      .limit(1);
    if (access) {
      await tx.delete(sessions).where(eq(sessions.id, access.sessionId));
      return;
    }
    const [refresh] = await tx
      .select({ grantId: oauth2RefreshTokens.grantId })
      .from(oauth2RefreshTokens)
      .innerJoin(oauth2Grants, eq(oauth2Grants.id, oauth2RefreshTokens.grantId))
      .where(and(eq(oauth2RefreshTokens.tokenHash, hash), eq(oauth2Grants.appId, client.app.id)))
      .limit(1);
    if (refresh) await revokeGrants(tx, [refresh.grantId]);
  });
  res.writeHead(200, { "Cache-Control": "no-store", "Content-Length": "0" }).end();
}

/** The platform's `oauth2` feature: off, the authorization server does not exist. */
async function enabled(res: ServerResponse): Promise<boolean> {
  if ((await getPlatformConfig(await getDb())).features.oauth2) return true;
  sendJson(res, 404, { error: "OAuth2 applications are disabled on this platform", code: "not_found" });
  return false;
}

function libraryRequest(oauth: Library, req: IncomingMessage, body: Record<string, string>, query: URLSearchParams) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers[name] = value;
  return new oauth.Request({ method: req.method ?? "POST", headers, query: Object.fromEntries(query), body });
}

/** Client authentication by HTTP Basic (RFC 6749 2.3.1, form-encoded parts) or in the body. */
function clientCredentials(web: Request, body: Record<string, string>): { id: string; secret: string } | null {
  const basic = /^Basic\s+(\S+)$/i.exec(web.headers.get("authorization") ?? "");
  if (basic) {
    const decoded = Buffer.from(basic[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return null;
    try {
      return { id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " ")), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " ")) };
    } catch {
      return null;
    }
  }
  return body.client_id && body.client_secret ? { id: body.client_id, secret: body.client_secret } : null;
}

/**
 * An `application/x-www-form-urlencoded` body of at most 64 KiB as flat fields; a parameter given
 * twice is refused (RFC 6749 3.1). Null when an error answer was sent. A refused body is read no
 * further than needed: the answer drains the rest within bounds (answer-early.ts), never cuts it.
 */
async function readForm(req: IncomingMessage, res: ServerResponse): Promise<Record<string, string> | null> {
  const type = (req.headers["content-type"] ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    sendJson(res, 400, { error: "invalid_request", error_description: "Invalid request: content must be application/x-www-form-urlencoded" });
    return null;
  }
  const text = await new Promise<string | null>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.pause();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > FORM_LIMIT) {
        stop();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
  if (text === null) {
    sendJson(res, 413, { error: "invalid_request", error_description: "The request body is too large" });
    return null;
  }
  const body: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (name in body) {
      sendJson(res, 400, { error: "invalid_request", error_description: `Invalid request: \`${name}\` is repeated` });
      return null;
    }
    body[name] = value;
  }
  return body;
}

/** The library's error as RFC 6749 5.2 JSON; a non-OAuth failure is logged and answered as server_error. */
function sendOAuthError(oauth: Library, res: ServerResponse, error: unknown, challenge?: string) {
  if (error instanceof oauth.OAuthError) {
    const name = error.name === "unauthorized_request" ? "invalid_request" : error.name;
    sendJson(res, error.code, { error: name, error_description: error.message }, challenge ? { "WWW-Authenticate": challenge } : {});
    return;
  }
  console.error("[coffre] OAuth2 request failed:", error);
  sendJson(res, 500, { error: "server_error", error_description: "Internal error" });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = Buffer.from(JSON.stringify(body));
  void writeAnswer(res, status, { "Content-Type": "application/json", "Content-Length": String(text.length), "Cache-Control": "no-store", ...headers }, text);
}

/** The consent page posts from our own origin; anything else is a forged request. */
function sameOrigin(web: Request): boolean {
  const origin = web.headers.get("origin");
  const host = web.headers.get("x-forwarded-host") ?? web.headers.get("host");
  if (!origin) return web.headers.get("sec-fetch-site") === "same-origin";
  try {
    const allowed = new Set([host?.toLowerCase()]);
    const base = process.env.BASE_URL?.trim() ?? "";
    if (URL.canParse(base)) allowed.add(new URL(base).host.toLowerCase());
    return allowed.has(new URL(origin).host.toLowerCase());
  } catch {
    return false;
  }
}
