import { errorResponse } from "@/lib/server/errors";

export const runtime = "nodejs";

// Any /api path no route matches: a JSON 404, never the HTML page.
const notFound = async (req: Request) =>
  errorResponse(404, { error: `No operation at ${new URL(req.url).pathname}`, code: "not_found" });

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as HEAD };
