import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { identityLinks, type User } from "@/db/schema";
import { ROLE } from "@/db/schema/users";
import { displayName, writeLog } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import type { RequestInfo } from "../context";
import { queueMail } from "../mail/queue-mail";
import { mailTemplate, renderMail } from "../mail/render-mail";
import { hasFactor, loadUserFactors } from "../mfa/factors";

// The one decision on linking an outside identity (an OpenID Connect `sub`, a SAML NameID, a
// directory entry) to an account that already exists here (issue 25, finding 1). Single sign-on
// (OIDC and SAML, provision-sso-user.ts), the directories (provision-account.ts), the account
// page's "connect" and the console's link all ask it, so no path links on weaker grounds.

/** What says that an outside identity is the owner of an existing account. */
export type LinkEvidence =
  /** The provider asserts the address is verified: OIDC `email_verified: true`; SAML, a provider whose settings say so. */
  | "verified_email"
  /** A login the provider or the directory asserts (preferred_username, uid): a name people often choose, never proof. */
  | "login"
  /** From inside: the account's owner, signed in and with their password, connected the provider; or an administrator linked it. */
  | "inside";

export type LinkRefusal = "linked_elsewhere" | "login_not_proof" | "privileged" | "directory_account" | "has_password" | "has_second_factor";

const REFUSALS: Record<LinkRefusal, string> = {
  linked_elsewhere: "the account is already linked to another identity",
  login_not_proof: "a matching login is not proof of the same person",
  privileged: "administrator and manager accounts are linked only from inside",
  directory_account: "the account belongs to an external directory",
  has_password: "the account has a password: its owner connects the provider from the account page",
  has_second_factor: "the account has a second factor: its owner connects the provider from the account page",
};

export const describeLinkRefusal = (refusal: LinkRefusal) => REFUSALS[refusal];

export type LinkedProvider = { id: number; name: string; type: string };
export type Who = { actor: User | null; request: RequestInfo };

/**
 * Why `identity` may not be linked to `user` on this evidence, or null when it may. Only an
 * account that nothing else protects is linked automatically: not an administrator or manager,
 * no local password, no second factor, no directory; and only on a verified address. From
 * inside, any account is linked, if it is not already linked to another identity (one each).
 */
export async function linkRefusal(db: DbOrTx, user: User, evidence: LinkEvidence, identity: { providerId: number; externalId: string }): Promise<LinkRefusal | null> {
  const [current] = await db.select({ providerId: identityLinks.providerId, externalId: identityLinks.externalId }).from(identityLinks).where(eq(identityLinks.userId, user.id)).limit(1);
  if (current && !(current.providerId === identity.providerId && current.externalId === identity.externalId)) return "linked_elsewhere";
  if (evidence === "inside") return null;
  if (evidence === "login") return "login_not_proof";
  if (user.role === ROLE.admin || user.role === ROLE.manager) return "privileged";
  if (user.ldap) return "directory_account";
  if (user.passwordHash) return "has_password";
  if (hasFactor(await loadUserFactors(db, user.id))) return "has_second_factor";
  return null;
}

export const LINKED_MAIL = mailTemplate("identityLinked");

/**
 * Links `externalId` of `provider` to `user`, in the caller's transaction: the link, an audit
 * entry saying how, and a mail to the account's owner (in their language), who can then tell an
 * administrator if they did not ask for it.
 */
export async function linkIdentity(db: DbOrTx, provider: LinkedProvider, user: User, externalId: string, evidence: LinkEvidence, who: Who): Promise<void> {
  await db.insert(identityLinks).values({ providerId: provider.id, kind: "user", userId: user.id, externalId, seenAt: new Date() });
  const how = evidence === "verified_email" ? "by its verified email address" : who.actor && who.actor.id !== user.id ? `by ${who.actor.login}` : "by its owner";
  await writeLog(db, who, {
    type: "ADMLLOG_UPDATE",
    message: `Linked to ${provider.name} (${provider.type}) ${how}`,
    objectType: "user",
    objectId: user.id,
    object: user.login,
    // A sign-in has no actor: the entry is the account's own.
    user: who.actor ? undefined : { id: user.id, name: displayName(user) },
  });
  const to = user.email.trim();
  if (!to) return;
  const { platform_name } = await getPlatformConfig(db);
  const mail = renderMail(LINKED_MAIL, { recipient: displayName(user), platform: platform_name, login: user.login, provider: provider.name }, { language: user.language });
  await queueMail(db, { to, ownerId: user.id, subject: mail.subject, text: mail.text, html: mail.html });
}

/** A refused link, on the account it aimed at (its owner and administrators see it in its log). */
export async function logLinkRefused(db: DbOrTx, provider: LinkedProvider, user: User, refusal: LinkRefusal, who: Who): Promise<void> {
  await writeLog(db, who, {
    type: "ADMLLOG_LOGIN_FAILED",
    ok: false,
    message: `Refused to link ${provider.name} (${provider.type}): ${REFUSALS[refusal]}`,
    objectType: "user",
    objectId: user.id,
    object: user.login,
    user: { id: user.id, name: displayName(user) },
  });
}
