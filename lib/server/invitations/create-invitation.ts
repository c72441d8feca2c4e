import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import { invitations, users } from "@/db/schema";
import type { CreateInvitationBody, InvitationResponse } from "@/lib/contracts/invitations";
import { hasAddress } from "../account/request-password-reset";
import { displayName, writeLog } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { getFolderOrThrow } from "../folders/get-folder";
import { queueMail } from "../mail/queue-mail";
import { mailLanguage, renderMail } from "../mail/render-mail";
import { assertMayGrant } from "./invitation-access";
import { INVITATION_MAIL, mailExpiration } from "./invitation-mail";
import { presentInvitation } from "./present-invitations";

/** 128 random bits at least (here 192): keys cannot be guessed, so the public key routes need no throttle. */
export const newInvitationKey = () => randomBytes(24).toString("base64url");

/**
 * POST /invite: invites an email address to a folder. Needs the `invitations` feature and the
 * share right on the folder; the mask never exceeds the inviter's own rights (403). An address
 * that already belongs to a live account is a 409 naming it (give that user a right instead), and
 * so is a second pending invitation of the same address to the same folder (update it instead).
 * The invited address receives a link to `<app>/invite/<key>`.
 */
export async function createInvitation(ctx: AuthedCtx, input: CreateInvitationBody, appUrl: string): Promise<InvitationResponse> {
  const user = ctx.actor.user;
  const config = await getPlatformConfig(ctx.db);
  if (!config.features.invitations) throw forbidden("Invitations are disabled on this platform");
  if (input.expiration && input.expiration.getTime() <= Date.now()) {
    throw new AppError("invalid_request", "expiration must be in the future", [{ path: "expiration", message: "Must be in the future" }]);
  }
  return ctx.db.transaction(async (tx) => {
    const { folder, rights } = await getFolderOrThrow(tx, user, input.folder, "share");
    assertMayGrant(rights, input.rights);

    const [account] = await tx.select({ id: users.id }).from(users).where(and(isNull(users.deletedAt), hasAddress(input.target))).limit(1);
    if (account) {
      throw new AppError("conflict", "This address belongs to an existing account: give that user a right on the folder instead", { user_id: String(account.id) });
    }
    const [pending] = await tx
      .select({ id: invitations.id })
      .from(invitations)
      .where(
        and(
          eq(invitations.folderId, folder.id),
          eq(invitations.email, input.target),
          isNull(invitations.usedAt),
          or(isNull(invitations.expiration), gt(invitations.expiration, new Date())),
        ),
      )
      .limit(1);
    if (pending) throw new AppError("conflict", "This address already has a pending invitation to this folder: update it instead", { invitation_id: String(pending.id) });

    const [invitation] = await tx
      .insert(invitations)
      .values({ key: newInvitationKey(), email: input.target, folderId: folder.id, rights: input.rights, expiration: input.expiration ?? null, sourceId: user.id })
      .returning();
    // The invited person has no account yet: the inviter's language is the best guess of theirs.
    const language = mailLanguage(user.language);
    const mail = renderMail(
      INVITATION_MAIL,
      { actor: displayName(user), folder: folder.name, platform: config.platform_name, link: `${appUrl}/invite/${invitation.key}`, expiration: mailExpiration(invitation.expiration, language) },
      { language },
    );
    await queueMail(tx, { to: input.target, ownerId: user.id, ...mail });
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: `Invited ${input.target} to folder ${folder.name} (rights ${input.rights})`,
      objectType: "invitation",
      objectId: invitation.id,
      object: input.target,
    });
    return presentInvitation(tx, invitation);
  });
}
