import "server-only";
import { desc, eq } from "drizzle-orm";
import { ulinkDeposits } from "@/db/schema";
import type { DepositorGroup } from "@/lib/contracts/ulinks";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { getOwnUlinkOrThrow } from "./ulink-access";

// A link receives files one at a time from a few people: its deposits are grouped in memory,
// bounded so that a link flooded with deposits still answers in one small query.
const MAX_DEPOSITS = 5000;

/**
 * GET /ulink/(id)/deposits (ours, issue 29): who deposited what through one of the caller's drop
 * links (its owner or an administrator; anyone else 404, as GET /ulink/(id)), grouped by depositor
 * (name and email, the email case-insensitively), the group with the latest deposit first.
 */
export async function listUlinkDeposits(ctx: AuthedCtx, ulinkId: number, page: { offset: number; limit: number }) {
  const link = await getOwnUlinkOrThrow(ctx.db, ctx.actor.user, ulinkId);
  const rows = await ctx.db
    .select()
    .from(ulinkDeposits)
    .where(eq(ulinkDeposits.ulinkId, link.id))
    .orderBy(desc(ulinkDeposits.date), desc(ulinkDeposits.id))
    .limit(MAX_DEPOSITS);
  const groups = new Map<string, DepositorGroup>();
  for (const row of rows) {
    const key = JSON.stringify([row.depositorName ?? null, row.depositorEmail?.toLowerCase() ?? null]);
    let group = groups.get(key);
    if (!group) {
      group = { name: row.depositorName, email: row.depositorEmail, date: row.date.toISOString(), files: [] };
      groups.set(key, group);
    }
    group.files.push({ id: row.fileId, name: row.name, size: row.size, date: row.date.toISOString() });
  }
  const all = [...groups.values()];
  return envelope(all.slice(page.offset, page.offset + page.limit), page.offset, all.length);
}
