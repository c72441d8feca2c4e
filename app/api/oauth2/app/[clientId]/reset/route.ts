import { appResponse, clientIdParams } from "@/lib/contracts/oauth2";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { resetAppSecret } from "@/lib/server/oauth2/reset-app-secret";

export const runtime = "nodejs";

// POST /api/oauth2/app/(clientId)/reset: a new secret, shown once; every token of the application revoked
export const POST = route({ auth: "admin", params: clientIdParams, response: appResponse }, ({ ctx, params }) => resetAppSecret(ctx, params.clientId));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
