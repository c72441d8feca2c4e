import { desc, eq } from "drizzle-orm";
import { expect } from "vitest";
import * as createRoute from "@/app/api/invite/route";
import { getDb } from "@/db";
import { emails, invitations } from "@/db/schema";
import { createTestUser, unique, type TestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight } from "../../helpers/files";
import { call } from "../../helpers/http";

/** Every bit of the mask: 1 read, 2 download, 4 write, 8 edit, 16 delete, 32 share. */
export const ALL_MASK = 63;

/**
 * `owner`'s folder in their private space; `sharer` holds every right there (share included) but
 * delete, `reader` every right but share, `stranger` none.
 */
export async function invitationScene() {
  const owner = await createTestUser();
  const sharer = await createTestUser();
  const reader = await createTestUser();
  const stranger = await createTestUser();
  const folder = await createFolder(owner, owner.privateRootId!, unique("invited_to_"));
  await grantRight(folder.id, sharer.id, allRightsBut("delete"));
  await grantRight(folder.id, reader.id, allRightsBut("share"));
  return { owner, sharer, reader, stranger, folder };
}

export const address = () => `${unique("guest_")}@example.test`;

export const invite = (token: string, body: unknown) => call(createRoute.POST, { method: "POST", path: "/api/invite", token, body });

/** An invitation that must succeed; returns its response body. */
export async function createInvitation(user: TestUser, folderId: number, fields: { target?: string; rights?: number; expiration?: string | number | null } = {}) {
  const res = await invite(user.token, { target: fields.target ?? address(), folder: folderId, rights: fields.rights ?? 3, expiration: fields.expiration });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; key: string; email: string; rights: number; folder: number };
}

export async function storedInvitation(id: string | number) {
  const db = await getDb();
  const [row] = await db.select().from(invitations).where(eq(invitations.id, Number(id)));
  return row;
}

/** The newest outbox mail to an address. */
export async function outboxMailTo(to: string) {
  const db = await getDb();
  const [row] = await db.select().from(emails).where(eq(emails.to, to)).orderBy(desc(emails.id)).limit(1);
  return row;
}

/** Makes an invitation expired without waiting (creation refuses a past expiration). */
export async function expireInvitation(id: string | number) {
  const db = await getDb();
  await db.update(invitations).set({ expiration: new Date(Date.now() - 60_000) }).where(eq(invitations.id, Number(id)));
}

export async function markInvitationUsed(id: string | number, userId: number) {
  const db = await getDb();
  await db.update(invitations).set({ usedAt: new Date(), targetId: userId }).where(eq(invitations.id, Number(id)));
}
