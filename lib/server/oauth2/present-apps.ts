import "server-only";
import { eq, inArray, max, min, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { oauth2AccessTokens, oauth2Apps, sessions, users, type OAuth2App, type OAuth2Grant } from "@/db/schema";
import type { AppResponse, GrantResponse } from "@/lib/contracts/oauth2";
import { OAUTH2_KINDS } from "@/lib/contracts/oauth2";
import { displayName } from "../audit/write-log";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";

type Kind = (typeof OAUTH2_KINDS)[number];

/** The contract's OAuth2 application; the secret only when it was just made (create, reset). */
export async function presentApps(db: DbOrTx, apps: OAuth2App[]): Promise<AppResponse[]> {
  const owners = await loadOwnerNames(db, apps.map((a) => a.createdBy).filter((id): id is number => id !== null));
  return apps.map((app) => ({
    client_id: app.clientId,
    name: app.name,
    description: app.description,
    editor: app.editor,
    editor_url: app.editorUrl,
    type: app.type,
    kind: app.kind as Kind,
    scope: app.scope,
    callbacks_uris: app.callbackUris,
    owner_id: app.createdBy === null ? null : String(app.createdBy),
    owner: app.createdBy === null ? null : (owners.get(app.createdBy) ?? null),
    creation: app.createdAt.toISOString(),
    modification: app.updatedAt.toISOString(),
  }));
}

export const presentApp = async (db: DbOrTx, app: OAuth2App) => (await presentApps(db, [app]))[0];

/**
 * Grants with their application, user, last use and expiry (the latest of their live access
 * tokens; null when one of them does not expire): one query for the page.
 */
export async function presentGrants(db: DbOrTx, grants: OAuth2Grant[]): Promise<GrantResponse[]> {
  if (grants.length === 0) return [];
  const ids = grants.map((g) => g.id);
  const [apps, people, uses] = await Promise.all([
    db.select().from(oauth2Apps).where(inArray(oauth2Apps.id, [...new Set(grants.map((g) => g.appId))])),
    db.select().from(users).where(inArray(users.id, [...new Set(grants.map((g) => g.userId))])),
    db
      .select({
        grantId: oauth2AccessTokens.grantId,
        lastUsed: max(sessions.lastUsedAt),
        expiration: max(sessions.expiresAt),
        // Any live token without an expiry makes the grant last.
        endless: min(sql<number>`case when ${sessions.expiresAt} is null then 0 else 1 end`),
      })
      .from(oauth2AccessTokens)
      .innerJoin(sessions, eq(sessions.id, oauth2AccessTokens.sessionId))
      .where(inArray(oauth2AccessTokens.grantId, ids))
      .groupBy(oauth2AccessTokens.grantId),
  ]);
  const appOf = new Map(apps.map((a) => [a.id, a]));
  const userOf = new Map(people.map((u) => [u.id, u]));
  const useOf = new Map(uses.map((u) => [u.grantId, u]));
  return grants.map((grant) => {
    const app = appOf.get(grant.appId)!;
    const user = userOf.get(grant.userId)!;
    const use = useOf.get(grant.id);
    const lastUsed = use?.lastUsed ? new Date(use.lastUsed) : null;
    const expiration = use && Number(use.endless) !== 0 && use.expiration ? new Date(use.expiration) : null;
    return {
      token: grant.handle,
      client_id: app.clientId,
      application: app.name,
      editor: app.editor,
      editor_url: app.editorUrl,
      user_id: String(user.id),
      user: displayName(user),
      scope: grant.scope,
      creation: grant.createdAt.toISOString(),
      last_used: iso(lastUsed),
      expiration: iso(expiration),
    };
  });
}
