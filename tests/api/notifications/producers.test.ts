import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as annotationRoute from "@/app/api/annotation/route";
import * as alertRoute from "@/app/api/alert/route";
import * as shareEmailRoute from "@/app/api/share/email/route";
import * as shareRoute from "@/app/api/share/route";
import * as uploadRoute from "@/app/api/ulink/key/[key]/upload/route";
import { getDb } from "@/db";
import { users } from "@/db/schema";
import { alertDigestJob } from "@/lib/server/alerts/digest-job";
import { createTestGroup, createTestUser, unique } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { call } from "../../helpers/http";
import { multipartBody } from "../../helpers/upload-factories";
import { api, draftWithSigners, ok } from "../signatures/signature-helpers";
import { createLink } from "../ulinks/ulink-helpers";
import { flux1, start } from "../workflows/workflow-helpers";
import { giveRight, listNotifications } from "./notification-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const summary = async (token: string) => (await listNotifications(token)).objects.map((n) => ({ type: n.type, object: n.object, actor: n.actor?.id ?? null }));

describe("what produces notifications (mails stay as they were)", () => {
  it("a right given to a group: each member is told, the giver is not", async () => {
    const { owner, folder } = await createFileScene();
    const [ann, bob] = [await createTestUser(), await createTestUser()];
    const group = await createTestGroup({ members: [ann.id, bob.id, owner.id] });
    await giveRight(owner, folder.id, group.id);
    for (const member of [ann, bob]) expect(await summary(member.token)).toEqual([{ type: "share", object: { type: "folder", id: folder.id, name: folder.name }, actor: owner.id }]);
    expect(await summary(owner.token)).toEqual([]);
  });

  it("a link share mailed to a user's address: a share notification opening their personal address", async () => {
    const { owner, version, file } = await createFileScene();
    const recipient = await createTestUser();
    const share = await call(shareRoute.POST, { method: "POST", token: owner.token, body: { roots: [{ id: version.id, entity_type: 1 }], flags: 4 } });
    expect(share.status, share.text).toBe(201);
    const outsider = `${unique("out")}@example.test`;
    const sent = await call(shareEmailRoute.POST, { method: "POST", token: owner.token, body: { share_id: share.body.id, object: "", content: "", recipients: [{ email: recipient.email.toUpperCase() }, { email: outsider }] } });
    expect(sent.status, sent.text).toBe(201);
    const [n] = (await listNotifications(recipient.token)).objects;
    expect(n).toMatchObject({ type: "share", actor: { id: owner.id }, object: { type: "share", id: share.body.id, name: file.name } });
    expect(n.object.url).toMatch(new RegExp(`^/s/${share.body.key}\\?r=`));
  });

  it("a comment on a file: its owner is told, not the commenter", async () => {
    const { owner, other, folder, version, file } = await createFileScene();
    await grantRight(folder.id, other.id, allRightsBut("share"));
    const note = await call(annotationRoute.POST, { method: "POST", token: other.token, body: { target_id: version.id, target_type: "file", text: "nice" } });
    expect(note.status, note.text).toBe(201);
    expect(await summary(owner.token)).toEqual([{ type: "comment", object: { type: "file", id: version.id, name: file.name, url: `/files/${folder.id}` }, actor: other.id }]);
    expect(await summary(other.token)).toEqual([]);
  });

  it("an alert digest: one notification on the followed folder", async () => {
    const { owner, other, folder } = await createFileScene();
    await grantRight(folder.id, other.id, allRightsBut("share"));
    const followed = await call(alertRoute.POST, { method: "POST", token: other.token, body: { folder_id: folder.id, target_id: other.id } });
    expect(followed.status, followed.text).toBe(201);
    await uploadText(owner, folder.id, "a.txt", "a");
    await uploadText(owner, folder.id, "b.txt", "b");
    await alertDigestJob(await getDb(), { recipientId: other.id });
    expect(await summary(other.token)).toEqual([{ type: "alert", object: { type: "folder", id: folder.id, name: folder.name }, actor: owner.id }]);
  });

  it("a deposit on a drop link: its owner is told, with no actor", async () => {
    const { owner, folder } = await createFileScene();
    const link = await createLink(owner, { folder_id: folder.id, name: "Drop" });
    const { body, contentType } = multipartBody([{ name: "targetFile", filename: "invoice.txt", data: Buffer.from("x") }]);
    const res = await call(uploadRoute.POST, { method: "POST", params: { key: link.key }, rawBody: body, headers: { "content-type": contentType, "x-forwarded-for": "198.51.100.7" } });
    expect(res.status, res.text).toBe(201);
    const [n] = (await listNotifications(owner.token)).objects;
    expect(n).toMatchObject({ type: "deposit", actor: null, object: { type: "file", name: "invoice.txt", url: `/files/${folder.id}` } });
  });

  it("a signature request: a signer with an account is told when it is sent", async () => {
    const colleague = await createTestUser();
    const db = await getDb();
    const email = `${unique("signer")}@example.test`;
    await db.update(users).set({ email }).where(eq(users.id, colleague.id));
    const { owner, request } = await draftWithSigners({ signers: [email, `${unique("x")}@example.test`] });
    expect(await summary(colleague.token)).toEqual([]);
    ok(await api.activate(owner, request.id));
    expect(await summary(colleague.token)).toEqual([{ type: "signature", object: { type: "signature", id: request.id, name: request.name }, actor: owner.id }]);
  });

  it("a validation request: an internal validator is told", async () => {
    const { owner, other, folder, version, file } = await createFileScene();
    await grantRight(folder.id, other.id, allRightsBut("share"));
    const instance = await start(owner, flux1(version.id, { interne: [{ id: String(other.id), email: other.email }] }));
    const list = await summary(other.token);
    expect(list).toContainEqual({ type: "validation", object: { type: "workflow", id: instance.id, name: file.name }, actor: owner.id });
  });
});
