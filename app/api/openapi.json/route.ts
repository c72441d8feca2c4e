import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { openApiDocument } from "@/lib/server/openapi/openapi-document";
import { ROUTE_MODULES } from "./route-modules";

export const runtime = "nodejs";

// GET /api/openapi.json (no token): the OpenAPI 3.1 document of this API, from the routes' zod schemas
export const GET = route({ auth: "none" }, () => openApiDocument(ROUTE_MODULES));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
