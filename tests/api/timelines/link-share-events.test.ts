import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as fileTimeline from "@/app/api/file/[fileId]/timeline/route";
import * as keyTokenRoute from "@/app/api/token/share/download/[key]/route";
import { getDb, sql } from "@/db";
import { downloadByToken } from "@/lib/server/downloads/serve-download";
import { createTestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";
import { createShare } from "../shares/share-helpers";

let server: Awaited<ReturnType<typeof serveNode>>;
beforeAll(async () => {
  await getDb();
  server = await serveNode((req, res) => downloadByToken(req, res));
}, 180_000);
afterAll(() => server.close());

const timeline = (token: string, versionId: number) => call(fileTimeline.GET, { token, params: { fileId: String(versionId) } });

describe("link-share events (type 2) on the file timeline", () => {
  it("belong to the version current when the share was made, count in total_dlinks and carry the share with its downloads", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "shared");
    const first = await uploadText(owner, folder.id, "offer.txt", "v1");
    const share = await createShare(owner, { roots: [{ id: first.version.id, entity_type: 1 }], flags: 4, name: "For the client" });
    const second = await uploadText(owner, folder.id, "offer.txt", "v2");

    const res = await timeline(owner.token, second.version.id);
    expect(res.status, res.text).toBe(200);
    const [newest, oldest] = res.body;
    expect(newest).toMatchObject({ id: second.version.id, total_dlinks: 0 });
    expect(oldest).toMatchObject({ id: first.version.id, total_dlinks: 1 });
    const event = oldest.events.find((e: { type: number }) => e.type === 2);
    expect(event).toMatchObject({ owner_id: String(owner.id) });
    expect(event.data).toEqual({
      share_id: share.id,
      id: share.id,
      name: "For the client",
      flags: 4,
      expiration_date: null,
      creation_date: expect.any(String),
      owner: expect.any(String),
      owner_id: String(owner.id),
      downloads: 0,
      users: 0,
    });
    // The key never shows to those who read the timeline.
    expect(JSON.stringify(res.body)).not.toContain(share.key);

    // Two downloads through the link by one visitor: downloads 2, users 1 (the link serves the current version).
    for (let i = 0; i < 2; i++) {
      const token = await call(keyTokenRoute.POST, { method: "POST", params: { key: share.key } });
      expect(token.status, token.text).toBe(200);
      const got = await fetch(`${server.url}/api/file/download?token=${encodeURIComponent(token.body.token)}`);
      expect(got.status).toBe(200);
      expect(await got.text()).toBe("v2");
    }
    // A link's download is counted once the answer went out whole, just after the client has it.
    await expect
      .poll(async () => (await timeline(owner.token, second.version.id)).body[1].events.find((e: { type: number }) => e.type === 2).data)
      .toMatchObject({ downloads: 2, users: 1 });
  });

  it("are shown to those who may read the file, not to others", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "shared");
    const { version } = await uploadText(owner, folder.id, "a.txt", "x");
    await createShare(owner, { roots: [{ id: version.id, entity_type: 1 }], flags: 4 });
    const reader = await createTestUser();
    await grantRight(folder.id, reader.id, { read: true });
    expect((await timeline(reader.token, version.id)).body[0].total_dlinks).toBe(1);
    const stranger = await createTestUser();
    expect((await timeline(stranger.token, version.id)).status).toBe(403);
    await grantRight(folder.id, stranger.id, allRightsBut("read"));
    expect((await timeline(stranger.token, version.id)).status).toBe(403);
  });

  it("the migration gives old events without a version the version current at their date", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "old");
    const first = await uploadText(owner, folder.id, "old.txt", "v1");
    await createShare(owner, { roots: [{ id: first.version.id, entity_type: 1 }], flags: 4 });
    const db = await getDb();
    // As the events were before the fix.
    await db.execute(sql`UPDATE events SET version_id = NULL WHERE target_type = 'file' AND target_id = ${first.file.id} AND type = 2`);
    await uploadText(owner, folder.id, "old.txt", "v2");
    expect((await timeline(owner.token, first.version.id)).body[1].total_dlinks).toBe(0);
    const fs = await import("node:fs/promises");
    const fix = await fs.readFile(new URL("../../../db/migrations/0019_link_share_event_versions.sql", import.meta.url), "utf8");
    await db.execute(sql.raw(fix));
    const after = (await timeline(owner.token, first.version.id)).body;
    expect(after.map((v: { total_dlinks: number }) => v.total_dlinks)).toEqual([0, 1]);
  });
});
