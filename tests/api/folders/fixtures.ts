import { getDb } from "@/db";
import * as createRoute from "@/app/api/folder/route";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { createFolder } from "../../helpers/files";
import { call } from "../../helpers/http";

type Query = Record<string, string | number>;

export const at = (id: number) => ({ path: `/api/folder/${id}`, params: { folderId: String(id) } });
export const getFolder = (token: string, id: number, query: Query = {}) => call(folderRoute.GET, { ...at(id), token, query });
export const putFolder = (token: string, id: number, body: unknown, query: Query = {}) => call(folderRoute.PUT, { ...at(id), method: "PUT", token, body, query });
export const deleteFolder = (token: string, id: number, query: Query = {}) => call(folderRoute.DELETE, { ...at(id), method: "DELETE", token, query });
export const postFolder = (token: string, body: unknown, query: Query = {}) => call(createRoute.POST, { path: "/api/folder", method: "POST", token, body, query });

export const names = (list: { name: string }[]) => list.map((x) => x.name);

/** A user with a folder "Work" in their private space, and another user to share it with. */
export async function createSharedScene() {
  const owner = await createTestUser();
  const guest: TestUser = await createTestUser();
  const work = await createFolder(owner, owner.privateRootId!, "Work");
  return { owner, guest, work };
}

/** For `beforeAll(openDatabase, OPEN_TIMEOUT)`: a fresh PGlite boots and migrates slowly on a busy machine. */
export const openDatabase = async () => void (await getDb());
export const OPEN_TIMEOUT = 180_000;
