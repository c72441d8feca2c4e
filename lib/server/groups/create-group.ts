import "server-only";
import { and, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "@/db";
import { groupMembers, groups } from "@/db/schema";
import type { createGroupBody } from "@/lib/contracts/groups";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { assertLiveUsers, assertManagers, replaceManagers } from "./group-members";
import { presentGroup } from "./serialize-group";

type Input = z.output<typeof createGroupBody>;

/** POST /group (administrators): a group with its members and, optionally, its managers. */
export async function createGroup(ctx: AuthedCtx, input: Input, options: { full: boolean }) {
  const actor = ctx.actor.user;
  if (actor.role !== 3) throw forbidden("Only administrators create groups");
  const group = await ctx.db.transaction(async (tx) => {
    await assertGroupLoginFree(tx, input.login);
    await assertLiveUsers(tx, input.members, "members");
    if (input.managers) await assertManagers(tx, input.managers);
    const [created] = await tx.insert(groups).values({ login: input.login }).returning();
    const members = [...new Set(input.members)];
    if (members.length) await tx.insert(groupMembers).values(members.map((userId) => ({ groupId: created.id, userId })));
    if (input.managers) await replaceManagers(tx, created.id, input.managers);
    await writeLog(tx, { actor, request: ctx.request }, { type: "ADMLLOG_INSERT", message: `Created group ${created.login}`, objectType: "group", objectId: created.id, object: created.login });
    return created;
  });
  return presentGroup(ctx.db, group, options);
}

/** Group names are unique whatever their case (the unique index settles races with a 409 too). */
export async function assertGroupLoginFree(db: DbOrTx, login: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(sql`lower(${groups.login}) = lower(${login})`, exceptId === undefined ? undefined : ne(groups.id, exceptId)))
    .limit(1);
  if (taken) throw new AppError("conflict", `A group named "${login}" already exists`);
}
