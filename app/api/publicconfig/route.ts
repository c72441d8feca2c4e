import { publicConfigResponse } from "@/lib/contracts/config";
import { readPublicConfig } from "@/lib/server/config/read-public-config";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/publicconfig: platform name, features, password rule, languages, version (no token)
export const GET = route({ auth: "none", response: publicConfigResponse }, ({ ctx }) => readPublicConfig(ctx));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
