import { z } from "zod";
import { id } from "@/lib/contracts/common";

/** Single sign-on with the identity providers of type `oidc` and `saml2` (lib/server/sso). */

export const ssoParams = z.object({ providerId: id });

/** GET /sso/(id)/login: `next`, the page to land on once signed in (a path of this site). */
export const ssoLoginQuery = z.object({ next: z.string().max(2048).optional() });

/** POST /sso/(id)/saml/acs: what the identity provider's page posts (HTTP-POST binding). */
export const samlResponseBody = z.object({
  SAMLResponse: z.string().min(1).max(512 * 1024).regex(/^[A-Za-z0-9+/=\s]+$/, "Expected base64"),
  RelayState: z.string().max(2048).optional(),
});

/** GET /sso/(id)/saml/acs?ticket=: the browser finishing a verified SAML sign-in. */
export const samlTicketQuery = z.object({ ticket: z.string().regex(/^[\w-]{43}$/, "Expected a sign-in ticket") });

/** GET /sso/providers (public): what the sign-in page needs to offer a button, nothing more. */
export const ssoProviderSummary = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(["oidc", "saml2"]),
  /** The address the button links to (add `?next=/path` to land elsewhere than the home page). */
  login_url: z.string(),
});
export type SsoProviderSummary = z.infer<typeof ssoProviderSummary>;
export const ssoProvidersResponse = z.array(ssoProviderSummary);
