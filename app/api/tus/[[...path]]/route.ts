import { errorResponse } from "@/lib/server/errors";
import { drainingBody } from "@/lib/server/http/drain-body";
import { handleTusRequest } from "@/lib/server/uploads/tus-server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Bound wrapper: the server's own method loses `this` when exported (environment.md, trap 7).
// A body tus never read (a refused creation, an unknown upload) is drained, never left half-read.
const tus = drainingBody((req: Request) => handleTusRequest(req));

// POST /api/tus: tus 1.0.0 creation (Upload-Metadata `token <base64 sessionKey>` from POST /api/file/tus)
export const POST = tus;
// HEAD /api/tus/(uploadId): tus offset of an upload, for resuming
export const HEAD = tus;
// PATCH /api/tus/(uploadId): tus bytes at Upload-Offset
export const PATCH = tus;
// DELETE /api/tus/(uploadId): tus termination
export const DELETE = tus;
// OPTIONS /api/tus: tus capabilities
export const OPTIONS = tus;

// GET, PUT /api/tus: not part of the tus protocol here (content is read through /api/file/(id)/download)
const notAllowed = async (req: Request) =>
  errorResponse(405, { error: `Method ${req.method} is not allowed here`, code: "method_not_allowed" }, { Allow: "POST, HEAD, PATCH, DELETE, OPTIONS" });
export { notAllowed as GET, notAllowed as PUT };
