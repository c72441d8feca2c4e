import { eq } from "drizzle-orm";
import { expect } from "vitest";
import * as unarchiveFileRoute from "@/app/api/archive/file/[fileId]/unarchive/route";
import * as archiveFileRoute from "@/app/api/archive/file/[fileId]/route";
import * as unarchiveFolderRoute from "@/app/api/archive/folder/[folderId]/unarchive/route";
import * as archiveFolderRoute from "@/app/api/archive/folder/[folderId]/route";
import * as listRoute from "@/app/api/archives/route";
import * as fileArchiveRoute from "@/app/api/file/[fileId]/archive/route";
import * as folderArchiveRoute from "@/app/api/folder/[folderId]/archive/route";
import { getDb } from "@/db";
import { archives } from "@/db/schema";
import { archiveResponse } from "@/lib/contracts/archives";
import { call } from "../../helpers/http";
import { runJobsUntil } from "../../helpers/jobs";

export { archiveFileRoute, archiveFolderRoute, fileArchiveRoute, folderArchiveRoute, listRoute, unarchiveFileRoute, unarchiveFolderRoute };

type Kind = "file" | "folder";
const param = (kind: Kind, id: number): Record<string, string> => (kind === "file" ? { fileId: String(id) } : { folderId: String(id) });

export const archiveIt = (token: string, kind: Kind, id: number) =>
  call(kind === "file" ? fileArchiveRoute.PUT : folderArchiveRoute.PUT, { method: "PUT", path: `/api/${kind}/${id}/archive`, token, params: param(kind, id) });
export const readArchive = (token: string, kind: Kind, id: number, query: Record<string, string> = {}) =>
  call(kind === "file" ? archiveFileRoute.GET : archiveFolderRoute.GET, { path: `/api/archive/${kind}/${id}`, token, params: param(kind, id), query });
export const updateArchive = (token: string, kind: Kind, id: number, body: unknown) =>
  call(kind === "file" ? archiveFileRoute.PUT : archiveFolderRoute.PUT, { method: "PUT", path: `/api/archive/${kind}/${id}`, token, params: param(kind, id), body });
export const deleteArchive = (token: string, kind: Kind, id: number) =>
  call(kind === "file" ? archiveFileRoute.DELETE : archiveFolderRoute.DELETE, { method: "DELETE", path: `/api/archive/${kind}/${id}`, token, params: param(kind, id) });
export const unarchive = (token: string, kind: Kind, id: number, body: unknown = {}) =>
  call(kind === "file" ? unarchiveFileRoute.PUT : unarchiveFolderRoute.PUT, { method: "PUT", path: `/api/archive/${kind}/${id}/unarchive`, token, params: param(kind, id), body });
export const listArchives = (token: string, query: Record<string, string | number> = {}) => call(listRoute.GET, { path: "/api/archives", token, query });

/** Archives `id` and waits until its bytes are in the cold tier. */
export async function archiveAndSettle(token: string, kind: Kind, id: number) {
  const res = await archiveIt(token, kind, id);
  expect(res.status, res.text).toBe(200);
  const archive = archiveResponse.strict().parse(res.body);
  expect(archive.state).toBe("pending");
  await settled(archive.id);
  return archive;
}

/** Runs the archive jobs until the archive is `archived`. */
export async function settled(archiveId: number) {
  const db = await getDb();
  await runJobsUntil(["archives.move"], async () => {
    const [row] = await db.select().from(archives).where(eq(archives.id, archiveId));
    return row?.state === "archived" ? row : null;
  }, 60_000);
}

/** Runs the restore jobs until the archive is gone (the object is back). */
export async function restored(archiveId: number) {
  const db = await getDb();
  await runJobsUntil(["archives.restore"], async () => {
    const [row] = await db.select().from(archives).where(eq(archives.id, archiveId));
    return row ? null : true;
  }, 60_000);
}
