import { fileParams } from "@/lib/contracts/files";
import { replaceContentQuery } from "@/lib/contracts/uploads";
import { presentFiles } from "@/lib/server/files/present-files";
import { otherMethods } from "@/lib/server/http/methods";
import { modeOf } from "@/lib/server/http/mode";
import { route } from "@/lib/server/http/route";
import { replaceContent } from "@/lib/server/uploads/replace-content";

export const runtime = "nodejs";

// PUT /api/file/(fileId)/upload: replace the current version's content (application/octet-stream), no new version
export const PUT = route({ params: fileParams, query: replaceContentQuery }, async ({ ctx, params, query, req }) => {
  const { file, version, folder, rights } = await replaceContent(ctx, params.fileId, req);
  const [json] = await presentFiles(ctx, [{ file, version, folder }], modeOf(query), { rights: new Map([[folder.id, rights]]) });
  return json;
});

export const { GET, POST, PATCH, DELETE } = otherMethods({ PUT });
