import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { replaceContentEndpoint } from "@/lib/server/uploads/upload-endpoints";

export const runtime = "nodejs";

// PUT /api/file/(fileId)/upload: replace the current version's content (application/octet-stream), no new version
// `npm start` answers it in server.ts on the raw request; this route serves `next dev` and the tests.
export const PUT = route(replaceContentEndpoint.spec, replaceContentEndpoint.fn);

export const { GET, POST, PATCH, DELETE } = otherMethods({ PUT });
