import "server-only";
import { sql } from "drizzle-orm";
import { rows } from "@/db";
import type { AuthedCtx } from "../context";
import { resolveRights } from "../rights/resolve-rights";
import { idArray } from "./id-array";

/**
 * Readable paths (`/Projects/2026/Contracts`) of folder chains (ids from the top down), in one
 * name query and one rights resolution whatever their number. Only the folders the caller may
 * browse are named (contract: path_name is limited by rights); the others are left out.
 */
export async function loadPathNames(ctx: AuthedCtx, chains: number[][]): Promise<(chain: number[]) => string> {
  const crumbsOf = await loadPathCrumbs(ctx, chains);
  return (chain) => `/${crumbsOf(chain).map((c) => c.name).join("/")}`;
}

/** The same chains as the folders the caller may browse, each with its id and name (for links). */
export async function loadPathCrumbs(ctx: AuthedCtx, chains: number[][]): Promise<(chain: number[]) => { id: number; name: string }[]> {
  const names = await loadBrowsableNames(ctx, [...new Set(chains.flat())]);
  return (chain) => chain.flatMap((id) => (names.has(id) ? [{ id, name: names.get(id)! }] : []));
}

async function loadBrowsableNames(ctx: AuthedCtx, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rights = await resolveRights(ctx.db, ctx.actor.user, ids);
  const found = rows<{ id: number; name: string }>(await ctx.db.execute(sql`SELECT id, name FROM folders WHERE id = ANY(${idArray(ids)})`));
  return new Map(found.filter((f) => rights.get(Number(f.id))?.browse).map((f) => [Number(f.id), f.name]));
}
