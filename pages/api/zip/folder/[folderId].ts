import { zipFolder } from "@/lib/server/zip/serve-user-zip";

// pages/api streams on Node's own response with backpressure (environment.md, trap 4).
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

// GET /api/zip/folder/(folderId): a folder and its subtree as one streamed zip (issue 29)
export default zipFolder;
