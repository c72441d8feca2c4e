import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { identityLinks, users, type User } from "@/db/schema";
import { MATCHING } from "@/lib/contracts/identity-providers";
import { writeLog } from "../audit/write-log";
import { accountRefusal, refusalReason } from "../auth/account-state";
import { normalizeLogin } from "../auth/login-name";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { createPrivateSpace } from "../folders/create-private-space";
import { describeLinkRefusal, type LinkEvidence, type LinkRefusal, linkIdentity, linkRefusal, logLinkRefused } from "../identity/account-linking";
import { ssoFailure } from "./sso-failure";
import type { SsoProvider } from "./sso-provider";

/** Who the provider says signed in, read from an ID token and userinfo, or a SAML assertion. */
export type SsoIdentity = {
  /** The provider's stable identifier: OIDC `sub`, SAML NameID. */
  subject: string;
  email: string | null;
  /**
   * true only when the provider asserts the address is verified (OIDC `email_verified: true`, a
   * SAML provider whose settings say its addresses are verified): only then is it matched.
   */
  emailVerified: boolean;
  login: string | null;
  firstname: string;
  lastname: string;
};

type Outcome = { user: User } | { refused: { user: User; refusal: LinkRefusal } };

/**
 * The platform account of an SSO identity (issue 25, finding 1):
 * - the account already linked to it;
 * - else, with `matching` by email, the one live account with the address the provider asserts
 *   verified, linked only where account-linking.ts allows it automatically (not an administrator
 *   or manager, no password, no second factor); an account that exists but is not linked this
 *   way is refused with `sso_account_exists`: its owner connects the provider from inside;
 * - `matching` by login never links: a login at the provider (preferred_username, uid) is a name
 *   people choose. It only names a new account; an existing account with that login is refused
 *   the same way, so its owner is told to connect from inside rather than given a second account;
 * - else a new account (role user, its private space) when the provider provisions just in time.
 * Only the names follow the provider afterwards: a sign-in never changes an account's email
 * (a provider-supplied address is where reset mails would go).
 */
export async function provisionSsoUser(ctx: Ctx, provider: SsoProvider, identity: SsoIdentity): Promise<User> {
  const who = { actor: null, request: ctx.request };
  const outcome = await ctx.db.transaction(async (tx): Promise<Outcome> => {
    const now = new Date();
    const [linked] = await tx
      .select({ user: users, linkId: identityLinks.id })
      .from(identityLinks)
      .innerJoin(users, eq(users.id, identityLinks.userId))
      .where(and(eq(identityLinks.providerId, provider.id), eq(identityLinks.kind, "user"), eq(identityLinks.externalId, identity.subject)))
      .limit(1);
    if (linked && !linked.user.deletedAt) {
      await tx.update(identityLinks).set({ seenAt: now }).where(eq(identityLinks.id, linked.linkId));
      return { user: await refreshNames(tx, linked.user, identity) };
    }
    // The account it pointed to was deleted: this identity starts again like a new one.
    if (linked) await tx.delete(identityLinks).where(eq(identityLinks.id, linked.linkId));

    const candidate = await findCandidate(tx, provider, identity);
    if (candidate) {
      // An account that may not sign in now is not linked for later either; the person is told why.
      const state = accountRefusal(candidate.user);
      if (state) throw new AppError("unauthorized", state, { reason: refusalReason(candidate.user) });
      const refusal = await linkRefusal(tx, candidate.user, candidate.evidence, { providerId: provider.id, externalId: identity.subject });
      if (refusal) return { refused: { user: candidate.user, refusal } };
      await linkIdentity(tx, provider, candidate.user, identity.subject, candidate.evidence, who);
      return { user: await refreshNames(tx, candidate.user, identity) };
    }

    if (!provider.provisioning) throw ssoFailure("sso_no_account", `No account matches this ${provider.name} identity, and ${provider.name} does not create accounts`);
    const login = await freeLogin(tx, identity);
    const [created] = await tx
      .insert(users)
      .values({ login, passwordHash: null, firstname: identity.firstname, lastname: identity.lastname, email: await newAccountEmail(tx, identity), role: 2 })
      .returning();
    created.privateRootId = await createPrivateSpace(tx, created.id);
    await tx.insert(identityLinks).values({ providerId: provider.id, kind: "user", userId: created.id, externalId: identity.subject, seenAt: now });
    await writeLog(tx, { actor: created, request: ctx.request }, { type: "ADMLLOG_INSERT", message: `Created user ${created.login} at first sign-in with ${provider.name} (${provider.type})`, objectType: "user", objectId: created.id, object: created.login });
    return { user: created };
  });
  if ("user" in outcome) return outcome.user;

  // Logged outside the transaction above, which a refusal would otherwise take back with it.
  const { user, refusal } = outcome.refused;
  await logLinkRefused(ctx.db, provider, user, refusal, who);
  if (refusal === "linked_elsewhere") throw ssoFailure("sso_account_conflict", `The account "${user.login}" is already linked to another identity`);
  throw ssoFailure("sso_account_exists", `The account "${user.login}" exists and is not linked to ${provider.name} automatically: ${describeLinkRefusal(refusal)}`);
}

/** The existing account the identity names under the provider's `matching`, and on what evidence. */
async function findCandidate(tx: DbOrTx, provider: SsoProvider, identity: SsoIdentity): Promise<{ user: User; evidence: LinkEvidence } | null> {
  if (provider.matching === MATCHING.email) {
    if (!identity.email || !identity.emailVerified) return null;
    const found = await tx.select().from(users).where(and(sql`lower(${users.email}) = lower(${identity.email})`, isNull(users.deletedAt))).limit(2);
    // Two accounts share the address: choosing one would be a guess.
    if (found.length > 1) throw ssoFailure("sso_account_conflict", `Several accounts match this identity's email address`);
    return found[0] ? { user: found[0], evidence: "verified_email" } : null;
  }
  const login = cleanLogin(identity.login);
  if (!login) return null;
  const [found] = await tx.select().from(users).where(and(sql`lower(${users.login}) = lower(${login})`, isNull(users.deletedAt))).limit(1);
  return found ? { user: found, evidence: "login" } : null;
}

/** The identity's names, copied onto the account when the provider sent them; never its address. */
async function refreshNames(tx: DbOrTx, user: User, identity: SsoIdentity): Promise<User> {
  const changes: Partial<Pick<User, "firstname" | "lastname">> = {};
  if (identity.firstname && identity.firstname !== user.firstname) changes.firstname = identity.firstname;
  if (identity.lastname && identity.lastname !== user.lastname) changes.lastname = identity.lastname;
  if (Object.keys(changes).length === 0) return user;
  const [updated] = await tx.update(users).set(changes).where(eq(users.id, user.id)).returning();
  return updated;
}

/**
 * The address a new account starts with: the provider's, unless another live account has it (an
 * unverified address could shadow its owner, and two accounts on one address make reset by email
 * unusable); the person can set one from their account page.
 */
async function newAccountEmail(tx: DbOrTx, identity: SsoIdentity): Promise<string> {
  if (!identity.email) return "";
  const [taken] = await tx.select({ id: users.id }).from(users).where(and(sql`lower(${users.email}) = lower(${identity.email})`, isNull(users.deletedAt))).limit(1);
  return taken ? "" : identity.email;
}

/** The login the provider suggests (or the email's local part), numbered when a live account has it. */
async function freeLogin(tx: DbOrTx, identity: SsoIdentity): Promise<string> {
  const base =
    cleanLogin(identity.login) ??
    cleanLogin(identity.email?.split("@")[0]) ??
    `sso-${Buffer.from(identity.subject).toString("hex").slice(0, 16)}`;
  for (let n = 1; n < 50; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    const [taken] = await tx.select({ id: users.id }).from(users).where(and(sql`lower(${users.login}) = lower(${candidate})`, isNull(users.deletedAt))).limit(1);
    if (!taken) return candidate;
  }
  return `${base}-${Date.now().toString(36)}`;
}

/**
 * A login without spaces, slashes or control characters (the users contract's rule), in the form
 * sign-ins compare (login-name.ts), so "ａｄｍｉｎ" is "admin", not a look-alike account beside it.
 */
function cleanLogin(value: string | null | undefined): string | null {
  const cleaned = normalizeLogin(value ?? "").replace(/[\s/\\\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200b\ufeff]+/g, "").slice(0, 200);
  return cleaned || null;
}
