import "server-only";
import type { Profile } from "@node-saml/node-saml";
import { cleanText, splitName } from "./oidc-client";
import type { SsoIdentity } from "./provision-sso-user";
import { ssoFailure } from "./sso-failure";

// The identity a verified SAML assertion carries. Attribute names differ between identity
// providers; these are the usual ones: LDAP names (SimpleSAMLphp, Shibboleth), their OIDs
// (urn:oid:), and the claim URIs of Microsoft's providers (AD FS, Entra ID).

const CLAIMS = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims";
const ATTRIBUTES = {
  email: ["mail", "email", "emailAddress", "urn:oid:0.9.2342.19200300.100.1.3", `${CLAIMS}/emailaddress`],
  firstname: ["givenName", "firstName", "first_name", "urn:oid:2.5.4.42", `${CLAIMS}/givenname`],
  lastname: ["sn", "surname", "lastName", "last_name", "urn:oid:2.5.4.4", `${CLAIMS}/surname`],
  name: ["displayName", "cn", "name", "urn:oid:2.16.840.1.113730.3.1.241", "urn:oid:2.5.4.3", "http://schemas.microsoft.com/identity/claims/displayname", `${CLAIMS}/name`],
  login: ["uid", "username", "sAMAccountName", "preferred_username", "urn:oid:0.9.2342.19200300.100.1.1", "http://schemas.microsoft.com/ws/2008/06/identity/claims/windowsaccountname"],
};
const TRANSIENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";
const PERSISTENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";

/**
 * `emailsVerified`: the provider's setting `emails_verified` (default off). SAML has no standard
 * way to say an address was verified, so only an administrator who knows this provider's
 * addresses are checked lets them match existing accounts.
 */
export function samlIdentity(profile: Profile, emailsVerified: boolean): SsoIdentity {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const first = (names: string[]) => {
    for (const name of names) {
      const value = cleanText(attributes[name]);
      if (value) return value;
    }
    return "";
  };
  const email = first(ATTRIBUTES.email);
  let firstname = first(ATTRIBUTES.firstname);
  let lastname = first(ATTRIBUTES.lastname);
  if (!firstname && !lastname) [firstname, lastname] = splitName(first(ATTRIBUTES.name));
  const nameId = cleanText(profile.nameID);
  const format = profile.nameIDFormat ?? "";
  // A persistent or transient NameID is an opaque handle, not a login a person would recognise.
  const login = first(ATTRIBUTES.login) || (format === PERSISTENT || format === TRANSIENT ? "" : nameId.split("@")[0]);

  // A transient NameID changes at every sign-in: the account is then known by its address or login.
  const subject = format === TRANSIENT ? (email ? `email:${email.toLowerCase()}` : login ? `login:${login}` : "") : nameId;
  if (!subject) throw ssoFailure("sso_assertion", "The assertion names nobody (no NameID, or a transient one without email or login)");
  return { subject, email: email.includes("@") ? email : null, emailVerified: emailsVerified, login: login || null, firstname, lastname };
}

/** The assertion's ID and how long it stays valid, for the replay cache (from the verified assertion). */
export function assertionIdentifier(profile: Profile): { id: string; notOnOrAfter: Date | null } {
  const assertion = (profile.getAssertion?.() as { Assertion?: { $?: { ID?: string }; Conditions?: { $?: { NotOnOrAfter?: string } }[] } } | undefined)?.Assertion;
  const id = assertion?.$?.ID;
  if (!id) throw ssoFailure("sso_assertion", "The assertion has no ID");
  const notOnOrAfter = assertion?.Conditions?.[0]?.$?.NotOnOrAfter;
  const date = notOnOrAfter ? new Date(notOnOrAfter) : null;
  return { id, notOnOrAfter: date && !Number.isNaN(date.getTime()) ? date : null };
}
