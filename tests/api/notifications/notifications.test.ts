import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, unique } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { createFolder } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { giveRight, listNotifications, listRoute, markRead, notificationPath, oneRoute, parseNotification, readAll, readAllRoute } from "./notification-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

/** `owner` shares three folders with `recipient` one after another: three notifications. */
async function threeShares() {
  const { owner, folder } = await createFileScene();
  const recipient = await createTestUser();
  const names = [unique("A_"), unique("B_"), unique("C_")];
  const made = [];
  for (const name of names) {
    const f = await createFolder(owner, folder.id, name);
    await giveRight(owner, f.id, recipient.id);
    made.push(f);
  }
  return { owner, recipient, folders: made };
}

describe("GET /notifications", () => {
  it("lists the caller's notifications newest first with actor and object, paged, with the unread count", async () => {
    const { owner, recipient, folders } = await threeShares();
    const list = await listNotifications(recipient.token);
    expect([list.nb_total_objects, list.nb_unread]).toEqual([3, 3]);
    expect(list.objects.map((n) => n.object.id)).toEqual(folders.map((f) => f.id).reverse());
    expect(list.objects[0]).toEqual({
      id: expect.any(Number),
      type: "share",
      date: expect.any(String),
      read: false,
      actor: { id: owner.id, name: expect.stringContaining(owner.lastname) },
      object: { type: "folder", id: folders[2].id, name: folders[2].name },
    });
    const page = await listNotifications(recipient.token, { offset_start: 1, nb_objects: 1 });
    expect([page.offset_start, page.nb_objects, page.nb_total_objects]).toEqual([1, 1, 3]);
    expect(page.objects[0].object.id).toBe(folders[1].id);
    // The actor is not told of their own act.
    expect((await listNotifications(owner.token)).nb_total_objects).toBe(0);
    expectError(await call(listRoute.GET, { path: "/api/notifications", token: recipient.token, query: { nb_objects: -1 } }), 400, "invalid_request");
  });

  it("filters unread ones with ?unread=1, and marks one read and unread again", async () => {
    const { recipient } = await threeShares();
    const [newest, middle] = (await listNotifications(recipient.token)).objects;
    const res = await markRead(recipient.token, middle.id, { read: true });
    expect(res.status, res.text).toBe(200);
    expect(parseNotification(res.body)).toMatchObject({ id: middle.id, read: true });
    const unread = await listNotifications(recipient.token, { unread: 1 });
    expect(unread.objects.map((n) => n.id)).not.toContain(middle.id);
    expect([unread.nb_total_objects, unread.nb_unread]).toEqual([2, 2]);
    expect((await markRead(recipient.token, middle.id, { read: false })).body.read).toBe(false);
    expect((await listNotifications(recipient.token)).nb_unread).toBe(3);
    expect(newest.read).toBe(false);
  });

  it("PUT /notifications/read marks them all read (204), leaving other users' alone", async () => {
    const { recipient, owner, folders } = await threeShares();
    const bystander = await createTestUser();
    await giveRight(owner, folders[0].id, bystander.id);
    expect((await readAll(recipient.token)).status).toBe(204);
    expect((await listNotifications(recipient.token)).nb_unread).toBe(0);
    expect((await listNotifications(recipient.token, { unread: "1" })).objects).toEqual([]);
    expect((await listNotifications(bystander.token)).nb_unread).toBe(1);
  });

  it("refuses another user's notification as not found, and bad bodies as 400", async () => {
    const { recipient } = await threeShares();
    const stranger = await createTestUser();
    const [mine] = (await listNotifications(recipient.token)).objects;
    expectError(await markRead(stranger.token, mine.id, { read: true }), 404, "not_found");
    expect((await listNotifications(recipient.token)).nb_unread).toBe(3);
    expect((await listNotifications(stranger.token)).objects).toEqual([]);
    expectError(await markRead(recipient.token, 2_000_000_000, { read: true }), 404, "not_found");
    expectError(await markRead(recipient.token, mine.id, { read: "yes" }), 400, "invalid_request");
    expectError(await markRead(recipient.token, mine.id, {}), 400, "invalid_request");
    expectError(await markRead(recipient.token, mine.id, { read: true, user_id: stranger.id }), 400, "invalid_request");
  });

  it("answers 401 without a valid token", async () => {
    await expectAuthRequired(listRoute.GET, { path: "/api/notifications" });
    await expectAuthRequired(oneRoute.PUT, { ...notificationPath(1), method: "PUT", body: { read: true } });
    await expectAuthRequired(readAllRoute.PUT, { path: "/api/notifications/read", method: "PUT" });
  });
});
