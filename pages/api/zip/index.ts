import { zipSelection } from "@/lib/server/zip/serve-user-zip";

// pages/api streams on Node's own response with backpressure (environment.md, trap 4).
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

// GET /api/zip?files=(File ids)&folders=(folder ids)&name=: a selection as one streamed zip (issue 29)
export default zipSelection;
