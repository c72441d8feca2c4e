import { createFolderBody, createFolderQuery, folderResponse } from "@/lib/contracts/folders";
import { copyFolder } from "@/lib/server/folders/copy-folder";
import { createFolder } from "@/lib/server/folders/create-folder";
import { presentFolders } from "@/lib/server/folders/present-folders";
import { modeOf } from "@/lib/server/present/mode";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/folder: create a folder (201, or 200 with the existing one), or `copy` a folder tree into parent_id
export const POST = route({ query: createFolderQuery, body: createFolderBody, response: { 200: folderResponse, 201: folderResponse } }, async ({ ctx, query, body }) => {
  const mode = modeOf(query);
  if (query.copy !== undefined) return created(await copyFolder(ctx, query.copy, body.parent_id, mode));
  const result = await createFolder(ctx, body);
  const [folder] = await presentFolders(ctx, [result.folder], mode);
  return result.created ? created(folder) : folder;
});

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
