import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getDb, type Db } from "@/db";
import type { User } from "@/db/schema";
import { zipFolderParams, zipSelectionQuery } from "@/lib/contracts/zip";
import { attachmentDisposition } from "../downloads/content-disposition";
import { AppError } from "../errors";
import { sendError, toWebRequest } from "../http/node-route";
import { authenticate } from "../http/route";
import type { ZipEntry } from "../shares/zip-entries";
import { listUserZipEntries } from "./list-user-zip-entries";
import { streamZip } from "./stream-zip";

type Planned = { name: string; entries: ZipEntry[] };
type Plan = (db: Db, user: User, url: URL) => Promise<Planned>;

/**
 * A signed-in user's zips (issue 29) answer on Node's own response like downloads (environment.md,
 * trap 4), streamed with no buffering (stream-zip.ts). Authentication and errors are route()'s:
 * the same bearer or session, the same JSON error body, given before the first byte of the zip.
 */
function nodeZipHandler(plan: Plan) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? "GET";
    try {
      if (method !== "GET" && method !== "HEAD") {
        throw new AppError("method_not_allowed", `Method ${method} is not allowed here`, undefined, { Allow: "GET, HEAD" });
      }
      const url = new URL(req.url ?? "/", "http://localhost");
      const db = await getDb();
      const actor = await authenticate(db, toWebRequest(req, url), "user");
      const { name, entries } = await plan(db, actor!.user, url);
      const headers = { "Content-Type": "application/zip", "Content-Disposition": attachmentDisposition(`${name.replace(/[/\\]/g, "_") || "download"}.zip`), "Cache-Control": "private, no-store, no-transform", "X-Content-Type-Options": "nosniff" };
      if (method === "HEAD") {
        res.writeHead(200, headers).end();
        return;
      }
      await streamZip(res, entries, headers);
    } catch (error) {
      await sendError(res, method, error);
    }
  };
}

/** GET /api/zip/folder/(folderId): the folder and its live subtree. */
export const zipFolder = nodeZipHandler(async (db, user, url) => {
  const { folderId } = zipFolderParams.parse({ folderId: /\/zip\/folder\/([^/]+)\/?$/.exec(url.pathname)?.[1] });
  const entries = await listUserZipEntries(db, user, { folderIds: [folderId], versionIds: [] });
  return { name: entries[0]?.path.replace(/\/$/, "") ?? "folder", entries };
});

/** GET /api/zip?files=(File ids)&folders=(folder ids)&name=: a selection, as one zip. */
export const zipSelection = nodeZipHandler(async (db, user, url) => {
  const query = zipSelectionQuery.parse(Object.fromEntries(url.searchParams));
  const entries = await listUserZipEntries(db, user, { folderIds: query.folders ?? [], versionIds: query.files ?? [] });
  return { name: query.name ?? "download", entries };
});
