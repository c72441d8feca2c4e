import { downloadByToken } from "@/lib/server/downloads/serve-download";

// A pages/api route, unlike app/api, keeps the Content-Length header (environment.md, trap 4).
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

// GET /api/file/download?token=: the content for a download file token (query latest; Range; HEAD too)
export default downloadByToken;
