import "server-only";
import { and, eq, isNull, lt } from "drizzle-orm";
import type OAuth2Server from "@node-oauth/oauth2-server";
import type { DbOrTx } from "@/db";
import { oauth2AccessTokens, oauth2Apps, oauth2Codes, oauth2Grants, oauth2RefreshTokens, sessions, users, type OAuth2App } from "@/db/schema";
import { accountRefusal } from "../auth/account-state";
import { loadOnce } from "../boot/load-once";
import { SCOPES } from "@/lib/contracts/scopes";
import { hashToken, newToken } from "../auth/tokens";
import type { RequestInfo } from "../context";
import { REFUSAL_MESSAGES } from "../options/connection-rules";
import { findConnectionRefusal } from "../options/find-connection-refusal";
import { findApp, revokeGrants, secretMatches } from "./app-access";

/** Access tokens live an hour unless the grant holds `offline` (api.md, "OAuth2"): then no expiry. */
export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
export const CODE_SECONDS = 60;

/** The OAuth2 library loads with the first request to the authorization server, not at every start. */
export const loadOAuth2Server = loadOnce(async () => (await import("@node-oauth/oauth2-server")).default);

/** What the library carries between its steps for us: the user, and where the grant comes from. */
type GrantUser = { id: number; grantId?: number; codeHash?: string };
export type OAuthClient = OAuth2Server.Client & { app: OAuth2App };

/** Type 0 (client-to-server): the code flow and its refresh tokens; type 1 (server-to-server): client credentials. */
export function toClient(app: OAuth2App): OAuthClient {
  return {
    id: app.clientId,
    redirectUris: app.callbackUris,
    grants: app.type === 1 ? ["client_credentials"] : ["authorization_code", "refresh_token"],
    accessTokenLifetime: ACCESS_TOKEN_SECONDS,
    refreshTokenLifetime: REFRESH_TOKEN_SECONDS,
    app,
  };
}

/**
 * The scopes granted for a request: those asked (or, when none are, the registration's), each of
 * them known and covered by the registration. `all` covers every area scope, `<area>.readwrite`
 * covers `<area>.read`; `offline` must be registered itself. Null: `invalid_scope`.
 */
export function grantableScope(registered: string, requested: string[] | undefined): string[] | null {
  const allowed = new Set(registered.split(/\s+/).filter(Boolean));
  const wanted = [...new Set(requested && requested.length > 0 ? requested : [...allowed])];
  const covered = (scope: string) => {
    if (!SCOPES.includes(scope)) return false;
    if (allowed.has(scope)) return true;
    if (scope === "offline") return false;
    if (allowed.has("all")) return true;
    return scope.endsWith(".read") && allowed.has(scope.replace(/\.read$/, ".readwrite"));
  };
  return wanted.length > 0 && wanted.every(covered) ? wanted : null;
}

/**
 * The storage and policy the OAuth2 library asks for (@node-oauth/oauth2-server's model). Access
 * tokens are rows of `sessions` with their scope, so authenticate() applies expiry, account state,
 * connection options and scopes to them like to any token; only hashes of codes and tokens are kept.
 * `requestedScope` is the `scope` of a /oauth2/token request, checked before a refresh token is spent.
 */
export function oauth2Model(db: DbOrTx, request: RequestInfo, requestedScope?: string) {
  return {
    /**
     * `secret` is null when /oauth2/authorize looks the client up, and a string at /oauth2/token.
     * The library lets a PKCE code exchange come without a secret (undefined): our clients are
     * confidential, so that is an unknown client too.
     */
    async getClient(clientId: string, secret: string | null | undefined) {
      const app = await findApp(db, clientId);
      if (!app || secret === undefined) return null;
      if (secret !== null && !secretMatches(app, secret)) return null;
      return toClient(app);
    },

    async validateScope(_user: GrantUser, client: OAuthClient, scope?: string[]) {
      return grantableScope(client.app.scope, scope) ?? false;
    },

    generateAccessToken: async () => newToken(),
    generateRefreshToken: async () => newToken(),
    generateAuthorizationCode: async () => newToken(),

    // Never called: /api requests are authenticated by authenticate(), not by the library.
    getAccessToken: async () => null,

    async saveAuthorizationCode(code: Pick<OAuth2Server.AuthorizationCode, "authorizationCode" | "expiresAt" | "redirectUri" | "scope" | "codeChallenge" | "codeChallengeMethod">, client: OAuthClient, user: GrantUser) {
      // PKCE S256 only (api.md): the library refuses `plain` but lets a request without a challenge through.
      if (!code.codeChallenge || code.codeChallengeMethod !== "S256") {
        throw new (await loadOAuth2Server()).InvalidRequestError("Invalid request: PKCE is required (code_challenge with code_challenge_method S256)");
      }
      // Codes left unexchanged an hour after they expired are of no use, not even to detect a reuse.
      await db.delete(oauth2Codes).where(lt(oauth2Codes.expiresAt, new Date(Date.now() - 3600_000)));
      await db.insert(oauth2Codes).values({
        codeHash: hashToken(code.authorizationCode),
        appId: client.app.id,
        userId: user.id,
        redirectUri: code.redirectUri,
        scope: (code.scope ?? []).join(" "),
        codeChallenge: code.codeChallenge,
        codeChallengeMethod: code.codeChallengeMethod,
        expiresAt: code.expiresAt,
      });
      return { ...code, client, user };
    },

    /** A code used before is refused, and what its first use issued is revoked (RFC 6749 4.1.2). */
    async getAuthorizationCode(authorizationCode: string) {
      const codeHash = hashToken(authorizationCode);
      const [row] = await db.select().from(oauth2Codes).innerJoin(oauth2Apps, eq(oauth2Apps.id, oauth2Codes.appId)).where(eq(oauth2Codes.codeHash, codeHash)).limit(1);
      if (!row) return null;
      if (row.oauth2_codes.usedAt) {
        if (row.oauth2_codes.grantId) await revokeGrants(db, [row.oauth2_codes.grantId]);
        return null;
      }
      const code = row.oauth2_codes;
      return {
        authorizationCode,
        expiresAt: code.expiresAt,
        redirectUri: code.redirectUri,
        scope: code.scope.split(" ").filter(Boolean),
        client: toClient(row.oauth2_apps),
        user: { id: code.userId, codeHash } satisfies GrantUser,
        codeChallenge: code.codeChallenge,
        codeChallengeMethod: code.codeChallengeMethod,
      };
    },

    /** Single use, even under concurrent exchanges: only the request that marks it goes on. */
    async revokeAuthorizationCode(code: { authorizationCode: string }) {
      const marked = await db
        .update(oauth2Codes)
        .set({ usedAt: new Date() })
        .where(and(eq(oauth2Codes.codeHash, hashToken(code.authorizationCode)), isNull(oauth2Codes.usedAt)))
        .returning({ codeHash: oauth2Codes.codeHash });
      return marked.length === 1;
    },

    /** A type 1 application acts as the administrator who created it (api.md). */
    async getUserFromClient(client: OAuthClient) {
      if (client.app.createdBy === null) return false;
      return { id: client.app.createdBy } satisfies GrantUser;
    },

    /**
     * A rotated refresh token presented again revokes its whole family (the grant). A scope beyond
     * the grant's is refused here, before the library spends the token (it checks the scope only
     * after revoking, so a refused request left the client without a refresh token and the next
     * use of the spent one revoked the grant: issue 25, finding 8).
     */
    async getRefreshToken(refreshToken: string) {
      const [row] = await db
        .select()
        .from(oauth2RefreshTokens)
        .innerJoin(oauth2Grants, eq(oauth2Grants.id, oauth2RefreshTokens.grantId))
        .innerJoin(oauth2Apps, eq(oauth2Apps.id, oauth2Grants.appId))
        .where(eq(oauth2RefreshTokens.tokenHash, hashToken(refreshToken)))
        .limit(1);
      if (!row) return null;
      if (row.oauth2_refresh_tokens.usedAt) {
        await revokeGrants(db, [row.oauth2_grants.id]);
        return null;
      }
      const granted = row.oauth2_grants.scope.split(" ").filter(Boolean);
      const asked = (requestedScope ?? "").split(" ").filter(Boolean);
      if (asked.some((scope) => !granted.includes(scope))) throw new (await loadOAuth2Server()).InvalidScopeError("Invalid scope: Unable to add extra scopes");
      return {
        refreshToken,
        refreshTokenExpiresAt: row.oauth2_refresh_tokens.expiresAt ?? undefined,
        scope: granted,
        client: toClient(row.oauth2_apps),
        user: { id: row.oauth2_grants.userId, grantId: row.oauth2_grants.id } satisfies GrantUser,
      };
    },

    /** Rotation: the old refresh token is marked used (kept to recognise a reuse) and its access token ends. */
    async revokeToken(token: { refreshToken: string }) {
      const [marked] = await db
        .update(oauth2RefreshTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(oauth2RefreshTokens.tokenHash, hashToken(token.refreshToken)), isNull(oauth2RefreshTokens.usedAt)))
        .returning({ sessionId: oauth2RefreshTokens.sessionId });
      if (!marked) return false;
      if (marked.sessionId !== null) await db.delete(sessions).where(eq(sessions.id, marked.sessionId));
      return true;
    },

    async saveToken(token: OAuth2Server.Token, client: OAuthClient, user: GrantUser) {
      const scope = token.scope ?? [];
      const offline = scope.includes("offline");
      await assertMayConnect(db, user.id, client.app, request);
      const saved = await db.transaction(async (tx) => {
        const grantId = await grantFor(tx, client.app, user, scope.join(" "));
        const [session] = await tx
          .insert(sessions)
          .values({
            tokenHash: hashToken(token.accessToken),
            userId: user.id,
            kind: `oauth:${client.app.kind}`,
            ip: request.ip,
            userAgent: request.userAgent,
            scope: scope.join(" "),
            expiresAt: offline ? null : (token.accessTokenExpiresAt ?? null),
          })
          .returning({ id: sessions.id });
        await tx.insert(oauth2AccessTokens).values({ sessionId: session.id, grantId });
        if (token.refreshToken) {
          await tx.insert(oauth2RefreshTokens).values({
            tokenHash: hashToken(token.refreshToken),
            grantId,
            sessionId: session.id,
            expiresAt: offline ? null : (token.refreshTokenExpiresAt ?? null),
          });
        }
        return grantId;
      });
      if (user.codeHash) await db.update(oauth2Codes).set({ grantId: saved }).where(eq(oauth2Codes.codeHash, user.codeHash));
      return {
        ...token,
        accessTokenExpiresAt: offline ? undefined : token.accessTokenExpiresAt,
        refreshTokenExpiresAt: offline ? undefined : token.refreshTokenExpiresAt,
        client,
        user,
      };
    },
  };
}

/** The grant a token joins: the refresh token's, a new one per code, one per application for client credentials. */
async function grantFor(tx: DbOrTx, app: OAuth2App, user: GrantUser, scope: string): Promise<number> {
  if (user.grantId) return user.grantId;
  if (!user.codeHash) {
    const [existing] = await tx
      .select({ id: oauth2Grants.id })
      .from(oauth2Grants)
      .where(and(eq(oauth2Grants.appId, app.id), eq(oauth2Grants.userId, user.id), eq(oauth2Grants.flow, "client")))
      .limit(1);
    if (existing) {
      await tx.update(oauth2Grants).set({ scope }).where(eq(oauth2Grants.id, existing.id));
      return existing.id;
    }
  }
  const [grant] = await tx
    .insert(oauth2Grants)
    .values({ handle: newToken(16), appId: app.id, userId: user.id, scope, flow: user.codeHash ? "code" : "client" })
    .returning({ id: oauth2Grants.id });
  return grant.id;
}

/**
 * Nothing is issued to an account that may not connect now: deleted, inactive or expired, or
 * refused by its connection options, `oauth_blocked` for the application's kind included.
 */
async function assertMayConnect(db: DbOrTx, userId: number, app: OAuth2App, request: RequestInfo) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  const { InvalidGrantError } = await loadOAuth2Server();
  const refusal = user ? accountRefusal(user) : "This account no longer exists";
  if (refusal) throw new InvalidGrantError(`Invalid grant: ${refusal}`);
  const reason = await findConnectionRefusal(db, userId, { ip: request.ip, kind: `oauth:${app.kind}` });
  if (reason) throw new InvalidGrantError(`Invalid grant: ${REFUSAL_MESSAGES[reason]}`);
}
