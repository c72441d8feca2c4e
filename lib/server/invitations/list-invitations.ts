import "server-only";
import { desc, eq } from "drizzle-orm";
import { invitations } from "@/db/schema";
import type { InvitationResponse } from "@/lib/contracts/invitations";
import { isAdmin, type AuthedCtx } from "../context";
import { getFolderOrThrow } from "../folders/get-folder";
import { presentInvitations } from "./present-invitations";

/** GET /invites: the caller's invitations, newest first; administrators see every invitation. */
export async function listInvitations(ctx: AuthedCtx): Promise<InvitationResponse[]> {
  const user = ctx.actor.user;
  const found = await ctx.db
    .select()
    .from(invitations)
    .where(isAdmin(user) ? undefined : eq(invitations.sourceId, user.id))
    .orderBy(desc(invitations.id));
  return presentInvitations(ctx.db, found);
}

/** GET /invites/(folderId): every invitation to a folder, whoever sent it; needs the share right there. */
export async function listFolderInvitations(ctx: AuthedCtx, folderId: number): Promise<InvitationResponse[]> {
  const { folder } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "share");
  const found = await ctx.db.select().from(invitations).where(eq(invitations.folderId, folder.id)).orderBy(desc(invitations.id));
  return presentInvitations(ctx.db, found);
}
