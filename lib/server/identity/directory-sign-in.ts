import "server-only";
import type { Entry } from "ldapts";
import type { DbOrTx } from "@/db";
import type { IdentityProviderRow, User } from "@/db/schema";
import { MATCHING } from "@/lib/contracts/identity-providers";
import { getPlatformConfig } from "../config/platform-config";
import type { RequestInfo } from "../context";
import { logLinkRefused } from "./account-linking";
import { bindAsPerson, type DirectoryConnection, DirectoryUnavailableError, escapeFilterValue, loadLdapts, openDirectory } from "./ldap-client";
import { personAttributes, toPerson } from "./ldap-entries";
import { findPersonGroups } from "./ldap-groups";
import { ldapSettings, type LdapSettings } from "./ldap-settings";
import { ensureDirectoryGroups, setDirectoryMemberships, upsertDirectoryUser } from "./provision-account";

export type DirectorySignIn =
  /** No entry answers to this identifier in this directory. */
  | { status: "unknown" }
  /** The entry exists but the password is wrong (or the entry cannot be used). */
  | { status: "refused"; reason: string }
  | { status: "ok"; user: User };

/** The identifier as the directory knows it: `login@suffix` is looked up as `login` when a suffix is set. */
function identifierFor(s: LdapSettings, typed: string): string {
  if (s.suffix && s.matching === MATCHING.login && typed.toLowerCase().endsWith(`@${s.suffix.toLowerCase()}`)) return typed.slice(0, -(s.suffix.length + 1));
  return typed;
}

async function findEntry(conn: DirectoryConnection, s: LdapSettings, attribute: string, value: string): Promise<Entry[] | "ambiguous"> {
  try {
    return await conn.search(s.baseDN, {
      filter: `(&${s.userFilter}(${attribute}=${escapeFilterValue(value)}))`,
      attributes: personAttributes(s),
      // Two are enough to know the identifier is ambiguous.
      sizeLimit: 2,
    });
  } catch (error) {
    const { ResultCodeError, SizeLimitExceededError } = await loadLdapts();
    if (error instanceof SizeLimitExceededError) return "ambiguous";
    // A directory that refuses the service account's search (base DN gone, no read access) cannot
    // say who the person is: the same as one that does not answer, never a wrong password.
    if (error instanceof ResultCodeError) {
      throw new DirectoryUnavailableError(`The directory ${conn.server} refused the search under ${s.baseDN}: ${error.message || error.constructor.name}`, conn.server, "search");
    }
    throw error;
  }
}

/**
 * Signs a person in with their directory password: the service account looks the identifier up
 * (`matching`: the login or the email attribute; the value escaped per RFC 4515), the person's
 * entry binds with the password on a connection of its own, and the account is provisioned or
 * refreshed with its mapped fields and groups. `expectedExternalId` (an account already linked
 * to this provider) must be the entry found. DirectoryUnavailableError when the directory cannot
 * be reached.
 */
export async function signInWithDirectory(
  db: DbOrTx,
  provider: IdentityProviderRow,
  input: { identifier: string; password: string; byLogin?: boolean; expectedExternalId?: string },
  request: RequestInfo,
): Promise<DirectorySignIn> {
  const s = await ldapSettings(provider);
  const conn = await openDirectory(s);
  try {
    const identifier = identifierFor(s, input.identifier);
    const attribute = input.byLogin || s.matching !== MATCHING.email ? s.person.login : s.person.email;
    const entries = await findEntry(conn, s, attribute, identifier);
    if (entries === "ambiguous" || entries.length > 1) return { status: "refused", reason: `"${identifier}" names several entries in ${provider.name}` };
    if (entries.length === 0) return { status: "unknown" };
    const entry = entries[0];
    const person = toPerson(s, entry);
    if (!person) return { status: "refused", reason: `The entry ${entry.dn} has no ${s.person.id} or ${s.person.login}` };
    if (input.expectedExternalId !== undefined && person.externalId !== input.expectedExternalId) {
      return { status: "refused", reason: `The login now names another entry of ${provider.name} (${entry.dn})` };
    }
    if (!(await bindAsPerson(s, conn.server, entry.dn, input.password))) return { status: "refused", reason: "Wrong password" };

    const groups = await findPersonGroups(conn, s, entry);
    const config = await getPlatformConfig(db);
    const ref = { id: provider.id, name: provider.name };
    const outcome = await db.transaction(async (tx) => {
      const who = { actor: null, request };
      const account = await upsertDirectoryUser(tx, ref, person, who, { organizationGroups: config.organization_groups });
      if (account.status === "conflict") {
        if (account.refused) await logLinkRefused(tx, { ...ref, type: provider.type }, account.refused.user, account.refused.refusal, who);
        return { status: "refused" as const, reason: account.reason };
      }
      if (account.status === "deleted") return { status: "refused" as const, reason: "The account of this entry was deleted on the platform" };
      const ensured = await ensureDirectoryGroups(tx, ref, groups, who);
      await setDirectoryMemberships(tx, provider.id, account.user.id, [...ensured.ids.values()]);
      return { status: "ok" as const, user: account.user };
    });
    return outcome;
  } finally {
    await conn.close();
  }
}
