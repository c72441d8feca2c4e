import { archiveFileParams, archiveResponse } from "@/lib/contracts/archives";
import { archiveFile } from "@/lib/server/archives/archive-object";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// PUT /api/file/(fileId)/archive: the file leaves the live tree, its bytes go to the archive tier (Archive, state pending)
export const PUT = route({ params: archiveFileParams, response: archiveResponse }, ({ ctx, params }) => archiveFile(ctx, params.fileId));

export const { GET, POST, PATCH, DELETE } = otherMethods({ PUT });
