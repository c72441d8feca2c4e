import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { depositEndpoint } from "@/lib/server/uploads/upload-endpoints";

export const runtime = "nodejs";

// POST /api/ulink/key/(key)/upload (no token; access_token when protected): deposit a file, whole (201) or chunked ("OK", [{missing}], then 201)
// `npm start` answers it in server.ts on the raw request; this route serves `next dev` and the tests.
export const POST = route(depositEndpoint.spec, depositEndpoint.fn);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
