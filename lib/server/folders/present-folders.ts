import "server-only";
import { sql } from "drizzle-orm";
import { rows } from "@/db";
import type { Folder } from "@/db/schema";
import type { FolderResponse } from "@/lib/contracts/folders";
import { getPlatformConfig } from "../config/platform-config";
import { annotationFields, countAnnotations } from "../annotations/count-annotations";
import type { AuthedCtx } from "../context";
import { iso } from "../present/envelope";
import type { Mode } from "../present/mode";
import { resolveRights } from "../rights/resolve-rights";
import { folderCans, type Rights } from "../rights/rights";
import { loadOwnerNames } from "../users/owner-names";
import { loadFolderStats } from "./folder-stats";
import { loadPathNames } from "./path-names";

/** The contract's Folder, so the compiler checks what is written (lib/contracts/folders.ts). */
export type FolderJson = FolderResponse;

/**
 * Serialises folders for the caller in the contract's modes, loading everything a mode needs in
 * a bounded number of queries whatever the number of folders.
 */
export async function presentFolders(ctx: AuthedCtx, list: Folder[], mode: Mode, known?: Map<number, Rights>): Promise<FolderJson[]> {
  if (list.length === 0) return [];
  const user = ctx.actor.user;
  const ids = list.map((f) => f.id);
  const missing = ids.filter((id) => !known?.has(id));
  const rights = new Map([...(known ?? []), ...(await resolveRights(ctx.db, user, missing))]);
  const owners = mode === "light" ? new Map<number, string>() : await loadOwnerNames(ctx.db, list.map((f) => f.ownerId));
  const full = mode === "full" ? await loadFullExtras(ctx, list) : null;

  return list.map((folder) => {
    const r = rights.get(folder.id)!;
    const json: FolderJson = { id: folder.id, name: folder.name, parent_id: folder.parentId ?? 0, ...folderCans(r) };
    if (mode !== "light") {
      Object.assign(json, {
        creation: iso(folder.createdAt),
        modification: iso(folder.modifiedAt),
        owner: owners.get(folder.ownerId) ?? "",
        owner_id: String(folder.ownerId),
      } satisfies Partial<FolderResponse>);
    }
    if (full) {
      const stats = full.stats.get(folder.id);
      Object.assign(json, {
        can_dlink: r.share && full.features.direct_link,
        can_ulink: r.share && full.features.upload_link,
        can_admin_rights: r.share,
        can_admin_alerts: r.share,
        ...(full.followed ? { self_alert: full.followed.has(folder.id) } : {}),
        shared: folder.space === "private" && full.shared.has(folder.id),
        size: stats?.size ?? 0,
        nb_d_folders: stats?.nb_d_folders ?? 0,
        nb_d_files: stats?.nb_d_files ?? 0,
        nb_folders: stats?.nb_folders ?? 0,
        nb_files: stats?.nb_files ?? 0,
        quota: folder.quota,
        purge_frequency: folder.purgeFrequency,
        path: `/${folder.path.join("/")}`,
        path_name: full.pathNames.get(folder.id) ?? "/",
        ...annotationFields(full.annotations.get(folder.id)),
      } satisfies Partial<FolderResponse>);
    }
    return json;
  });
}

async function loadFullExtras(ctx: AuthedCtx, list: Folder[]) {
  const config = await getPlatformConfig(ctx.db);
  const ids = list.map((f) => f.id);
  const [stats, shared, pathNameOf, annotations, followed] = await Promise.all([
    loadFolderStats(ctx.db, ids),
    loadSharedFolderIds(ctx, ids),
    loadPathNames(ctx, list.map((f) => f.path)),
    countAnnotations(ctx.db, ctx.actor.user.id, "folder", ids),
    // self_alert exists only while the platform option is on (contract): whether the caller follows the folder.
    config.self_alert ? loadFollowedFolderIds(ctx, ids) : null,
  ]);
  // path_name shows only the ancestors the caller may browse (contract: limited by rights).
  const pathNames = new Map(list.map((f) => [f.id, pathNameOf(f.path)]));
  return { stats, shared, pathNames, annotations, features: config.features, followed };
}

/** Folders on which the caller has an active alert of their own. */
async function loadFollowedFolderIds(ctx: AuthedCtx, ids: number[]): Promise<Set<number>> {
  const found = rows<{ folder_id: number }>(
    await ctx.db.execute(sql`
      SELECT folder_id FROM alerts
      WHERE target_id = ${ctx.actor.user.id} AND active AND (expiration_date IS NULL OR expiration_date > now())
        AND folder_id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`),
  );
  return new Set(found.map((f) => Number(f.folder_id)));
}

/** Folders carrying a right, or below one that does (a private folder "shared" with others). */
async function loadSharedFolderIds(ctx: AuthedCtx, ids: number[]): Promise<Set<number>> {
  const found = rows<{ id: number }>(
    await ctx.db.execute(sql`
      SELECT f.id FROM folders f
      WHERE f.id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})
        AND EXISTS (SELECT 1 FROM rights r WHERE r.folder_id = ANY(f.path || f.id))`),
  );
  return new Set(found.map((r) => Number(r.id)));
}
