import "server-only";
import type { DbOrTx } from "@/db";
import type { Archive } from "@/db/schema";
import type { ArchiveResponse } from "@/lib/contracts/archives";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";

/** The contract's Archive (api.md fields, with state, comment and sizes). */
export async function presentArchives(db: DbOrTx, list: Archive[]): Promise<ArchiveResponse[]> {
  const names = await loadOwnerNames(db, list.map((a) => a.ownerId).filter((id): id is number => id !== null));
  return list.map((a) => ({
    id: a.id,
    type: a.type,
    object_id: a.type === "file" ? (a.objectVersionId ?? a.objectId) : a.objectId,
    name: a.name,
    size: a.size,
    stored_size: a.storedSize,
    date: iso(a.createdAt)!,
    owner_id: a.ownerId === null ? "0" : String(a.ownerId),
    owner: a.ownerId === null ? "" : (names.get(a.ownerId) ?? ""),
    path_name: a.pathName,
    comment: a.comment,
    state: a.state,
    nb_files: a.nbFiles,
    nb_folders: a.nbFolders,
  }));
}

export const presentArchive = async (db: DbOrTx, archive: Archive) => (await presentArchives(db, [archive]))[0];
