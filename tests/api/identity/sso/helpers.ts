import { and, desc, eq } from "drizzle-orm";
import { expect } from "vitest";
import * as callbackRoute from "@/app/api/sso/[providerId]/callback/route";
import * as loginRoute from "@/app/api/sso/[providerId]/login/route";
import * as acsRoute from "@/app/api/sso/[providerId]/saml/acs/route";
import * as accountIdentityRoute from "@/app/api/account/identity/route";
import { getDb } from "@/db";
import { emails, identityLinks, identityProviders, logs, sessions, users } from "@/db/schema";
import { authenticateToken } from "@/lib/server/auth/authenticate";
import { hashToken } from "@/lib/server/auth/tokens";
import { readWebSessionToken } from "@/lib/server/auth/web-session";
import { encryptSecrets } from "@/lib/server/identity/secrets";
import { unique } from "../../../helpers/factories";
import { call } from "../../../helpers/http";
import { APP, type AppRoute, type Step, TestBrowser } from "./browser";

/** An OpenID Connect or SAML provider row, as the identity-provider API stores one. */
export async function createSsoProvider(
  input:
    | { type: "oidc"; discovery: string; client_id: string; client_secret?: string; provisioning?: boolean; purgeTime?: number; scope?: string; matching?: number; enable?: boolean }
    | { type: "saml2"; discovery: string; provisioning?: boolean; purgeTime?: number; idp_initiated?: boolean; emails_verified?: boolean; matching?: number; enable?: boolean },
) {
  const db = await getDb();
  const { type, matching, enable, ...settings } = input;
  const secret = "client_secret" in settings ? settings.client_secret : undefined;
  if ("client_secret" in settings) delete settings.client_secret;
  const [row] = await db
    .insert(identityProviders)
    .values({
      name: unique(`${type} `),
      type,
      enable: enable ?? true,
      isAuthn: true,
      isDirectory: false,
      isSso: true,
      matching: matching ?? 1,
      settings,
      secrets: await encryptSecrets(secret ? { client_secret: secret } : {}),
    })
    .returning();
  return row;
}

export const urlsOf = (providerId: number) => ({
  login: `${APP}/api/sso/${providerId}/login`,
  callback: `${APP}/api/sso/${providerId}/callback`,
  acs: `${APP}/api/sso/${providerId}/saml/acs`,
  metadata: `${APP}/api/sso/${providerId}/saml/metadata`,
});

/** The route export (and its parameters) that answers an app URL. */
export function appRoute(step: Step): AppRoute {
  const { pathname } = new URL(step.url);
  const match = pathname.match(/^\/api\/sso\/([^/]+)\/(login|callback|saml\/acs)$/);
  if (!match) throw new Error(`No SSO route for ${step.url}`);
  const params = { providerId: match[1] };
  if (match[2] === "login") return { handler: loginRoute.GET, params };
  if (match[2] === "callback") return { handler: callbackRoute.GET, params };
  return { handler: step.kind === "post" ? acsRoute.POST : acsRoute.GET, params };
}

/** Sends a step to the app and returns where it redirects the browser. */
export async function appStep(browser: TestBrowser, step: Step): Promise<{ status: number; location: string; res: Response }> {
  const res = await browser.app(appRoute(step), step);
  return { status: res.status, location: res.headers.get("location") ?? "", res };
}

/**
 * A whole sign-in in one browser: the app's login route, the provider's pages, and back through
 * the app until it leaves the SSO routes; returns the app's last redirect.
 */
export async function signInThrough(browser: TestBrowser, providerId: number, fill: Record<string, string>, next = "/files") {
  let { location } = await appStep(browser, { kind: "get", url: `${urlsOf(providerId).login}?next=${encodeURIComponent(next)}` });
  let step = await browser.atProvider(new URL(location, APP).href, fill);
  for (;;) {
    const answer = await appStep(browser, step);
    location = answer.location;
    const target = new URL(location, APP);
    if (answer.status !== 303 || target.origin !== APP || !target.pathname.startsWith("/api/sso/")) return answer;
    step = { kind: "get", url: target.href };
  }
}

/** The user a web-session cookie signs in, read the way every route reads it. */
export async function sessionUserOf(browser: TestBrowser) {
  const cookie = browser.cookieHeader(`${APP}/files`);
  const token = await readWebSessionToken(new Request(`${APP}/files`, { headers: { cookie } }));
  if (!token) return null;
  const db = await getDb();
  const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
  const actor = await authenticateToken(db, token, "10.9.8.7");
  return { user: actor.user, session: row };
}

export async function userByEmail(email: string) {
  const db = await getDb();
  return db.select().from(users).where(eq(users.email, email));
}

export async function linkOf(providerId: number, externalId: string) {
  const db = await getDb();
  const [link] = await db.select().from(identityLinks).where(and(eq(identityLinks.providerId, providerId), eq(identityLinks.externalId, externalId)));
  return link;
}

export async function lastLogFor(objectType: string, objectId: number | string) {
  const db = await getDb();
  const [row] = await db.select().from(logs).where(and(eq(logs.objectType, objectType), eq(logs.objectId, String(objectId)))).orderBy(desc(logs.id)).limit(1);
  return row;
}

/** A refused sign-in: back to the sign-in page with the reason, and no session cookie. */
export function expectRefused(answer: { status: number; location: string; res: Response }, reason: string) {
  expect(answer.status).toBe(303);
  expect(answer.location).toBe(`/login?sso_error=${reason}`);
  expect(answer.res.headers.getSetCookie().some((c) => c.includes("next-auth.session-token"))).toBe(false);
}

/** The entries of an account's log, newest first. */
export async function logsFor(userId: number) {
  const db = await getDb();
  return db.select().from(logs).where(and(eq(logs.objectType, "user"), eq(logs.objectId, String(userId)))).orderBy(desc(logs.id));
}

/** The mails queued to an address. */
export async function mailsTo(address: string) {
  const db = await getDb();
  return db.select().from(emails).where(eq(emails.to, address));
}

/**
 * Connecting a provider from the account page, in one browser: POST /account/identity with the
 * account's token and password (the answer's binding cookie kept), the provider's pages, then back
 * through the app until it leaves the SSO routes; returns the app's last redirect.
 */
export async function connectThrough(browser: TestBrowser, token: string, providerId: number, password: string, fill: Record<string, string>) {
  const started = await call(accountIdentityRoute.POST, { method: "POST", path: "/api/account/identity", token, body: { provider_id: providerId, password } });
  expect(started.status, started.text).toBe(200);
  browser.store(`${APP}/api/account/identity`, started.headers);
  let step = await browser.atProvider(started.body.url, fill);
  for (;;) {
    const answer = await appStep(browser, step);
    const target = new URL(answer.location, APP);
    if (answer.status !== 303 || target.origin !== APP || !target.pathname.startsWith("/api/sso/")) return answer;
    step = { kind: "get", url: target.href };
  }
}
