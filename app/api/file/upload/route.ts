import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { uploadFileEndpoint } from "@/lib/server/uploads/upload-endpoints";

export const runtime = "nodejs";

// POST /api/file/upload: multipart upload, whole (201 File) or chunked ("OK", [{missing}], then 201 File)
// `npm start` answers it in server.ts on the raw request; this route serves `next dev` and the tests.
export const POST = route(uploadFileEndpoint.spec, uploadFileEndpoint.fn);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
