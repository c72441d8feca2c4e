import { notJson } from "@/lib/contracts/common";
import { ssoParams } from "@/lib/contracts/sso";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { getSamlMetadata } from "@/lib/server/sso/get-saml-metadata";

export const runtime = "nodejs";

// GET /api/sso/(providerId)/saml/metadata: the service provider's metadata (XML), also its entity ID; no token
export const GET = route({ auth: "none", params: ssoParams, response: notJson("application/samlmetadata+xml") }, ({ ctx, req, params }) => getSamlMetadata(ctx, req, params.providerId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
