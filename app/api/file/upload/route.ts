import { uploadQuery } from "@/lib/contracts/uploads";
import { drainingBody } from "@/lib/server/http/drain-body";
import { otherMethods } from "@/lib/server/http/methods";
import { modeOf } from "@/lib/server/http/mode";
import { created, route } from "@/lib/server/http/route";
import { uploadFile } from "@/lib/server/uploads/upload-file";

export const runtime = "nodejs";

// POST /api/file/upload: multipart upload, whole (201 File) or chunked ("OK", [{missing}], then 201 File)
// A body refused before it is read (no session, unknown link...) is drained, never left half-read.
export const POST = drainingBody(
  route({ query: uploadQuery }, async ({ ctx, query, req }) => {
    const outcome = await uploadFile(ctx, req, { meta: query.meta, mode: modeOf(query) });
    if (outcome.kind === "file") return created(outcome.file);
    if (outcome.kind === "missing") return outcome.missing.map((missing) => ({ missing }));
    return new Response("OK", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
