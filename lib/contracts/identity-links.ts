import { z } from "zod";
import { reauthFields } from "@/lib/contracts/account";
import { principalId } from "@/lib/contracts/common";

/**
 * An account's outside identity (issue 25, finding 1): the single sign-on or directory provider
 * whose identity opens it. An account has at most one. Linking an existing account is done from
 * inside only: its owner connects a provider from the account page (POST /account/identity), or
 * an administrator links it in the console (PUT /user/(id)/identity).
 */
export const identityLinkResponse = z.object({
  provider_id: z.string(),
  provider_name: z.string(),
  /** The provider's type: oidc, saml2, or a directory type. */
  type: z.string(),
  /** The provider's identifier of the person: OIDC `sub`, SAML NameID, a directory entry's id. */
  external_id: z.string(),
  linked_at: z.string(),
  last_seen_at: z.string(),
});
export type IdentityLinkResponse = z.infer<typeof identityLinkResponse>;

/** GET /account/identity and GET /user/(id)/identity: the link, or null. */
export const accountIdentityResponse = z.object({ identity: identityLinkResponse.nullable() });
export type AccountIdentityResponse = z.infer<typeof accountIdentityResponse>;

/**
 * POST /account/identity: the signed-in person starts connecting a single sign-on provider to
 * their own account, confirming it is them like any change of what protects it (`password`, or
 * `code`: api.md, "Account security"). The answer is the provider's address the
 * browser goes to; the provider sends it back to /account once the identity is linked.
 */
export const connectIdentityBody = z.object({ provider_id: principalId, ...reauthFields });
export const connectIdentityResponse = z.object({ url: z.string() });

/** PUT /user/(id)/identity (administrators): link the account to this identity of a single sign-on provider. */
export const setUserIdentityBody = z.object({
  provider_id: principalId,
  external_id: z
    .string()
    .trim()
    .min(1)
    .max(512)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "Control characters are not allowed"),
});
export type SetUserIdentityInput = z.infer<typeof setUserIdentityBody>;
