import { configResponse, updateConfigBody } from "@/lib/contracts/config";
import { readConfig } from "@/lib/server/config/read-config";
import { updateConfig } from "@/lib/server/config/update-config";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/config: the whole platform configuration (SMTP password masked)
export const GET = route({ auth: "admin", response: configResponse }, ({ ctx }) => readConfig(ctx));

// PUT /api/config: change some options (nested objects merged)
export const PUT = route({ auth: "admin", body: updateConfigBody, response: configResponse }, ({ ctx, body }) => updateConfig(ctx, body));

export const { PATCH, POST, DELETE } = otherMethods({ GET, PUT });
