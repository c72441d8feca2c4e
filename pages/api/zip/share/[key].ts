import { serveShareZip } from "@/lib/server/shares/serve-zip";

// pages/api streams on Node's own response with backpressure (environment.md, trap 4).
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

// GET /api/zip/share/(key): the whole link share as one streamed zip (no token; access_token when protected)
export default serveShareZip;
