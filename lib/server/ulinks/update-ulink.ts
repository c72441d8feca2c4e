import "server-only";
import { eq } from "drizzle-orm";
import { ulinks } from "@/db/schema";
import { ULINK_FLAG, type UlinkResponse, type UpdateUlinkInput } from "@/lib/contracts/ulinks";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { hashLinkPassword } from "../links/link-password";
import { presentUlink } from "./present-ulinks";
import { forgetUlinkSecrets, getOwnUlinkOrThrow } from "./ulink-access";
import { assertFutureExpiration, assertUlinkDestination, ulinkFlags } from "./ulink-settings";

/**
 * PUT /ulink/(id): partial. A new folder needs the same rights as at creation; `password: null`
 * and `phone: null` lift that protection. The key stays, so addresses already given keep working.
 */
export async function updateUlink(ctx: AuthedCtx, ulinkId: number, input: UpdateUlinkInput, base: string): Promise<UlinkResponse> {
  const user = ctx.actor.user;
  assertFutureExpiration(input.expiration_date);
  const newHash = input.password ? await hashLinkPassword(input.password) : input.password;
  return ctx.db.transaction(async (tx) => {
    const link = await getOwnUlinkOrThrow(tx, user, ulinkId);
    if (input.folder_id !== undefined && input.folder_id !== link.folderId) await assertUlinkDestination(tx, user, input.folder_id);
    const passwordHash = newHash === undefined ? link.passwordHash : newHash;
    const phone = input.phone === undefined ? link.phone : input.phone;
    const receipt = input.alert ?? (input.flags === undefined ? (link.flags & ULINK_FLAG.receipt) !== 0 : (input.flags & ULINK_FLAG.receipt) !== 0);
    const [updated] = await tx
      .update(ulinks)
      .set({
        folderId: input.folder_id ?? link.folderId,
        expirationDate: input.expiration_date === undefined ? link.expirationDate : input.expiration_date,
        name: input.name === undefined ? link.name : input.name || null,
        passwordHash,
        phone,
        depositor: input.depositor ?? link.depositor,
        flags: ulinkFlags(receipt, { password: passwordHash !== null, phone: phone !== null }),
      })
      .where(eq(ulinks.id, link.id))
      .returning();
    // New secrets revoke the access given under the old ones.
    if (passwordHash !== link.passwordHash || phone !== link.phone) await forgetUlinkSecrets(tx, [link.id]);
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: "Updated a drop link", objectType: "ulink", objectId: link.id, object: updated.name ?? updated.key });
    return presentUlink(tx, updated, base);
  });
}
