import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { identityLinks, users, type User } from "@/db/schema";
import { MATCHING } from "@/lib/contracts/identity-providers";
import { writeLog } from "../audit/write-log";
import type { Ctx } from "../context";
import { createPrivateSpace } from "../folders/create-private-space";
import { ssoFailure } from "./sso-failure";
import type { SsoProvider } from "./sso-provider";

/** Who the provider says signed in, read from an ID token and userinfo, or a SAML assertion. */
export type SsoIdentity = {
  /** The provider's stable identifier: OIDC `sub`, SAML NameID. */
  subject: string;
  email: string | null;
  /** false when the provider says the address is not verified: it is then never matched. */
  emailVerified: boolean;
  login: string | null;
  firstname: string;
  lastname: string;
};

/**
 * The platform account of an SSO identity: the one already linked to it; else the live account
 * it matches (by login or email, per the provider's `matching`), then linked; else a new account
 * (role user, with its private space) when the provider provisions just in time. The account's
 * name and email follow the provider at each sign-in, and the link's `seen_at` feeds purgeTime.
 */
export async function provisionSsoUser(ctx: Ctx, provider: SsoProvider, identity: SsoIdentity): Promise<User> {
  return ctx.db.transaction(async (tx) => {
    const now = new Date();
    const [linked] = await tx
      .select({ user: users, linkId: identityLinks.id })
      .from(identityLinks)
      .innerJoin(users, eq(users.id, identityLinks.userId))
      .where(and(eq(identityLinks.providerId, provider.id), eq(identityLinks.kind, "user"), eq(identityLinks.externalId, identity.subject)))
      .limit(1);
    if (linked && !linked.user.deletedAt) {
      await tx.update(identityLinks).set({ seenAt: now }).where(eq(identityLinks.id, linked.linkId));
      return refreshProfile(tx, linked.user, identity);
    }
    // The account it pointed to was deleted: this identity starts again like a new one.
    if (linked) await tx.delete(identityLinks).where(eq(identityLinks.id, linked.linkId));

    const matched = await findMatch(tx, provider, identity);
    if (matched) {
      const [other] = await tx.select({ providerId: identityLinks.providerId }).from(identityLinks).where(eq(identityLinks.userId, matched.id)).limit(1);
      // An account that another provider (or another identity of this one) owns is never taken over.
      if (other) throw ssoFailure("sso_account_conflict", `The account "${matched.login}" is already linked to another identity`);
      await tx.insert(identityLinks).values({ providerId: provider.id, kind: "user", userId: matched.id, externalId: identity.subject, seenAt: now });
      await writeLog(tx, { actor: matched, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Account linked to ${provider.name} (${provider.type})`, objectType: "user", objectId: matched.id, object: matched.login });
      return refreshProfile(tx, matched, identity);
    }

    if (!provider.provisioning) throw ssoFailure("sso_no_account", `No account matches this ${provider.name} identity, and ${provider.name} does not create accounts`);
    const login = await freeLogin(tx, identity);
    const [created] = await tx
      .insert(users)
      .values({ login, passwordHash: null, firstname: identity.firstname, lastname: identity.lastname, email: identity.email ?? "", role: 2 })
      .returning();
    created.privateRootId = await createPrivateSpace(tx, created.id);
    await tx.insert(identityLinks).values({ providerId: provider.id, kind: "user", userId: created.id, externalId: identity.subject, seenAt: now });
    await writeLog(tx, { actor: created, request: ctx.request }, { type: "ADMLLOG_INSERT", message: `Created user ${created.login} at first sign-in with ${provider.name} (${provider.type})`, objectType: "user", objectId: created.id, object: created.login });
    return created;
  });
}

async function findMatch(tx: DbOrTx, provider: SsoProvider, identity: SsoIdentity): Promise<User | null> {
  let found: User[];
  if (provider.matching === MATCHING.email) {
    if (!identity.email || !identity.emailVerified) return null;
    found = await tx.select().from(users).where(and(sql`lower(${users.email}) = lower(${identity.email})`, isNull(users.deletedAt))).limit(2);
  } else {
    if (!identity.login) return null;
    found = await tx.select().from(users).where(and(sql`lower(${users.login}) = lower(${identity.login})`, isNull(users.deletedAt))).limit(2);
  }
  // Two accounts share the address: choosing one would be a guess.
  if (found.length > 1) throw ssoFailure("sso_account_conflict", `Several accounts match this identity's email address`);
  return found[0] ?? null;
}

/** The identity's name and address, copied onto the account when the provider sent them. */
async function refreshProfile(tx: DbOrTx, user: User, identity: SsoIdentity): Promise<User> {
  const changes: Partial<Pick<User, "firstname" | "lastname" | "email">> = {};
  if (identity.firstname && identity.firstname !== user.firstname) changes.firstname = identity.firstname;
  if (identity.lastname && identity.lastname !== user.lastname) changes.lastname = identity.lastname;
  if (identity.email && identity.email !== user.email) changes.email = identity.email;
  if (Object.keys(changes).length === 0) return user;
  const [updated] = await tx.update(users).set(changes).where(eq(users.id, user.id)).returning();
  return updated;
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

/** A login without spaces, slashes or control characters (the users contract's rule). */
function cleanLogin(value: string | null | undefined): string | null {
  const cleaned = (value ?? "").replace(/[\s/\\\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200b\ufeff]+/g, "").slice(0, 200);
  return cleaned || null;
}
