import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { invitations, users } from "@/db/schema";
import type { CompleteInvitationBody } from "@/lib/contracts/invitations";
import type { UserResponse } from "@/lib/contracts/users";
import { writeLog } from "../audit/write-log";
import { assertStrongPassword, hashPassword } from "../auth/passwords";
import { getPlatformConfig } from "../config/platform-config";
import type { Ctx } from "../context";
import { AppError, forbidden } from "../errors";
import { createRight } from "../rights/create-right";
import { rightsFromMask } from "../rights/rights";
import { presentUser } from "../users/serialize-user";
import { getUsableInvitationOrThrow } from "./invitation-by-key";

/**
 * POST /invite/key/(key) (no token): creates the invited person's external account (role 1) with
 * the invited address, gives it the invitation's right on the folder and marks the key used, all
 * in one transaction that holds the invitation's row: of two completions, only one succeeds, the
 * other finds the key used (410). The right is created by the rights service as the inviter, so
 * it is checked against what the inviter holds now: one who lost the folder or the share right
 * since can no longer let anyone in (403).
 */
export async function completeInvitation(ctx: Ctx, key: string, input: CompleteInvitationBody): Promise<UserResponse> {
  // A bad key is told before a weak password, and neither costs a password hash.
  await getUsableInvitationOrThrow(ctx.db, key);
  assertStrongPassword(input.password, (await getPlatformConfig(ctx.db)).password_min_length);
  const passwordHash = await hashPassword(input.password);

  const created = await ctx.db.transaction(async (tx) => {
    const { invitation, folder } = await getUsableInvitationOrThrow(tx, key, { lock: true });
    const [inviter] = await tx.select().from(users).where(and(eq(users.id, invitation.sourceId), isNull(users.deletedAt))).limit(1);
    if (!inviter) throw revoked();
    const [taken] = await tx.select({ id: users.id }).from(users).where(and(sql`lower(${users.login}) = lower(${input.login})`, isNull(users.deletedAt))).limit(1);
    if (taken) throw new AppError("conflict", "This login is taken: choose another one", [{ path: "login", message: "Already taken" }]);

    const [user] = await tx
      .insert(users)
      .values({ login: input.login, passwordHash, firstname: input.firstname ?? "", lastname: input.lastname ?? "", email: invitation.email, role: 1 })
      .returning();
    const asInviter = { db: tx, actor: { user: inviter, realUser: inviter, sessionId: null }, request: ctx.request };
    await createRight(asInviter, { folder_id: folder.id, target_id: user.id, ...rightsFromMask(invitation.rights) }, { recursive: false }).catch((error: unknown) => {
      throw error instanceof AppError && (error.code === "forbidden" || error.code === "not_found") ? revoked() : error;
    });
    await tx.update(invitations).set({ targetId: user.id, usedAt: sql`now()` }).where(eq(invitations.id, invitation.id));

    const who = { actor: user, request: ctx.request };
    await writeLog(tx, who, { type: "ADMLLOG_INSERT", message: `Created external user ${user.login} from an invitation to folder ${folder.name}`, objectType: "user", objectId: user.id, object: user.login });
    await writeLog(tx, who, { type: "ADMLLOG_UPDATE", message: `Invitation of ${invitation.email} to folder ${folder.name} used by ${user.login}`, objectType: "invitation", objectId: invitation.id, object: invitation.email });
    return user;
  });
  return presentUser(ctx.db, created);
}

const revoked = () => forbidden("The person who invited you can no longer give access to this folder: ask them for a new invitation");
