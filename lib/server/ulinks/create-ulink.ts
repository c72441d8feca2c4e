import "server-only";
import type { DbOrTx } from "@/db";
import { ulinks, type UlinkRow } from "@/db/schema";
import type { CreateUlinkInput, DepositorOption, UlinkResponse } from "@/lib/contracts/ulinks";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { newLinkKey } from "../links/link-key";
import { hashLinkPassword } from "../links/link-password";
import { presentUlink } from "./present-ulinks";
import { assertFutureExpiration, assertUlinkDestination, ulinkFlags } from "./ulink-settings";

export type NewUlink = {
  folderId: number;
  receipt: boolean;
  expirationDate: Date | null;
  name: string | null;
  passwordHash: string | null;
  phone: string | null;
  ulinkEmailId?: number;
  recipientEmail?: string;
  depositor?: DepositorOption;
};

/**
 * POST /ulink: a drop link on a folder the caller may share and write to (platform feature
 * `upload_link`), with its own unguessable key. 201 Drop link.
 */
export async function createUlink(ctx: AuthedCtx, input: CreateUlinkInput, base: string): Promise<UlinkResponse> {
  const user = ctx.actor.user;
  assertFutureExpiration(input.expiration_date);
  const passwordHash = input.password ? await hashLinkPassword(input.password) : null;
  return ctx.db.transaction(async (tx) => {
    await assertUlinkDestination(tx, user, input.folder_id);
    const link = await insertUlink(tx, ctx, {
      folderId: input.folder_id,
      receipt: input.alert || ((input.flags ?? 0) & 4) !== 0,
      expirationDate: input.expiration_date ?? null,
      name: input.name || null,
      passwordHash,
      phone: input.phone ?? null,
      depositor: input.depositor,
    });
    return presentUlink(tx, link, base);
  });
}

/** Writes one drop link and its log entry (also used by drop links by email, one per recipient). */
export async function insertUlink(tx: DbOrTx, ctx: AuthedCtx, values: NewUlink): Promise<UlinkRow> {
  const user = ctx.actor.user;
  const [link] = await tx
    .insert(ulinks)
    .values({
      key: newLinkKey(),
      folderId: values.folderId,
      flags: ulinkFlags(values.receipt, { password: values.passwordHash !== null, phone: values.phone !== null }),
      name: values.name,
      expirationDate: values.expirationDate,
      ownerId: user.id,
      passwordHash: values.passwordHash,
      phone: values.phone,
      ulinkEmailId: values.ulinkEmailId,
      recipientEmail: values.recipientEmail,
      depositor: values.depositor,
    })
    .returning();
  await writeLog(tx, { actor: user, request: ctx.request }, {
    type: "ADMLLOG_INSERT",
    message: values.recipientEmail ? `Created a drop link for ${values.recipientEmail}` : "Created a drop link",
    objectType: "ulink",
    objectId: link.id,
    object: link.name ?? link.key,
  });
  return link;
}
