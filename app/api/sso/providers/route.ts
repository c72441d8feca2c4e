import { ssoProvidersResponse } from "@/lib/contracts/sso";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listSsoProviders } from "@/lib/server/sso/list-sso-providers";

export const runtime = "nodejs";

// GET /api/sso/providers: the enabled OpenID Connect and SAML providers (name, type, login_url), no token
export const GET = route({ auth: "none", response: ssoProvidersResponse }, ({ ctx }) => listSsoProviders(ctx));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
