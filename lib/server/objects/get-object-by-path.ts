import "server-only";
import type { Folder } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { notFound } from "../errors";
import { findLiveFileWithVersionByName } from "../files/live-files";
import { nameKey } from "../files/names";
import { presentFiles } from "../files/present-files";
import { findLiveChildFolder } from "../folders/folder-names";
import { presentFolders } from "../folders/present-folders";
import type { Mode } from "../present/mode";
import { resolveRights } from "../rights/resolve-rights";
import { findAllRoots } from "../spaces/find-spaces";

/**
 * GET /objectpath?object=/<root name>/<folder>/.../<name> (api.md): the File or Folder the caller
 * sees at that path, as {object}. The first segment names one of the roots GET /folders lists (the
 * first root of that name whose path resolves wins); names compare as inside a folder. A trailing
 * slash asks for a folder; without it a file is looked for first, then a folder. Every folder on
 * the way must be browsable and a file's folder readable, else 404 as if nothing were there.
 */
export async function getObjectByPath(ctx: AuthedCtx, path: string, mode: Mode) {
  const wantsFolder = path.endsWith("/");
  const segments = path.split("/").filter((s) => s !== "");
  if (segments.length === 0) throw notFound("Object");
  const roots = (await findAllRoots(ctx.db, ctx.actor.user)).filter((r) => nameKey(r.entry.folder.name) === nameKey(segments[0]));
  for (const root of roots) {
    const object = await resolveBelow(ctx, root.entry.folder, segments.slice(1), wantsFolder, mode);
    if (object) return { object };
  }
  throw notFound("Object");
}

async function resolveBelow(ctx: AuthedCtx, root: Folder, rest: string[], wantsFolder: boolean, mode: Mode) {
  const chain = [root];
  for (const name of rest.slice(0, -1)) {
    const next = await findLiveChildFolder(ctx.db, chain.at(-1)!.id, name);
    if (!next) return null;
    chain.push(next);
  }
  const last = rest.at(-1);
  const parent = chain.at(-1)!;
  const file = last !== undefined && !wantsFolder ? await findLiveFileWithVersionByName(ctx.db, parent.id, last) : undefined;
  if (!file && last !== undefined) {
    const folder = await findLiveChildFolder(ctx.db, parent.id, last);
    if (!folder) return null;
    chain.push(folder);
  }
  const rights = await resolveRights(ctx.db, ctx.actor.user, chain.map((f) => f.id));
  if (!chain.every((f) => rights.get(f.id)!.browse)) return null;
  if (file) {
    if (!rights.get(parent.id)!.read) return null;
    const [json] = await presentFiles(ctx, [{ ...file, folder: parent }], mode, { rights });
    return json;
  }
  const target = chain.at(-1)!;
  const [json] = await presentFolders(ctx, [target], mode, rights);
  return json;
}

