import { getDb } from "@/db";
import type { Folder, User } from "@/db/schema";
import { sendFolderToTrash } from "@/lib/server/trash/send-to-trash";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import { call } from "../../helpers/http";

/** Sends a file version to the trash through the delete route; returns the Trash item's id. */
export async function trashFile(token: string, versionId: number, versions: "all" | "none" | "previous" = "all"): Promise<number> {
  const res = await call(fileRoute.DELETE, { method: "DELETE", token, params: { fileId: String(versionId) }, query: { versions } });
  if (res.status !== 200) throw new Error(`trashFile: ${res.status} ${res.text}`);
  return res.body.id;
}

/** Sends a folder and its subtree to the trash (the folder routes belong to another area). */
export async function trashFolder(folder: Folder, by: Pick<User, "id">): Promise<number> {
  const item = await sendFolderToTrash(await getDb(), folder, { deletedBy: by.id });
  return item.id;
}
