import { workflowInstanceResponse, workflowTokenParams } from "@/lib/contracts/workflows";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { uploadSignedScan } from "@/lib/server/workflows/upload-signed-scan";

export const runtime = "nodejs";

// POST /api/workflow/instance/(token)/upload: flux 2, the signer sends the scanned signed PDF (multipart targetFile)
export const POST = route({ auth: "none", params: workflowTokenParams, response: workflowInstanceResponse }, ({ ctx, params, source, req }) => uploadSignedScan(ctx, params.key, source, appUrl(req)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
