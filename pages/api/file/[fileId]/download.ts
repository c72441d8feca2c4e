import { downloadById } from "@/lib/server/downloads/serve-download";

// A pages/api route, unlike app/api, keeps the Content-Length header (environment.md, trap 4);
// Next routes this path here ahead of app/api/[...path] (measured on next start).
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

// GET /api/file/(fileId)/download: the content (query latest; Range, If-None-Match; HEAD too)
export default downloadById;
