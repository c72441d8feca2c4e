import { beforeAll, describe, expect, it } from "vitest";
import * as logsRoute from "@/app/api/logs/route";
import { createAdmin, unique } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call } from "../../helpers/http";
import { attach, deleteTag, detach, makeTag, putTag } from "./tag-helpers";

// Issue 25, finding 18: a private tag is seen by its owner alone, administrators included
// (api.md), yet its name stood in the audit log administrators read. The log names it by id.

beforeAll(openDatabase, OPEN_TIMEOUT);

/** Every audit-log entry about `tagId`, as an administrator reads them through GET /logs. */
async function tagLogs(adminToken: string, tagId: number): Promise<{ message: string; object: string; type: string }[]> {
  const res = await call(logsRoute.GET, { path: "/api/logs", token: adminToken, query: { object_type: "tag", object_id: String(tagId), nb_objects: 100 } });
  expect(res.status, res.text).toBe(200);
  return res.body.objects;
}

describe("the audit log and private tags (issue 25)", () => {
  it("never holds a private tag's name, through its whole life: created, renamed, put on, taken off, deleted", async () => {
    const { owner, version } = await createFileScene();
    const admin = await createAdmin();
    const first = unique("divorce lawyer ");
    const second = unique("job hunt ");
    const tag = await makeTag(owner.token, { name: first, private: true });
    expect((await putTag(owner.token, tag.id, { name: second })).status).toBe(200);
    expect((await attach(owner.token, tag.id, version.id)).status).toBe(201);
    expect((await detach(owner.token, tag.id, version.id)).status).toBe(204);
    expect((await deleteTag(owner.token, tag.id)).status).toBe(204);

    const entries = await tagLogs(admin.token, tag.id);
    expect(entries.map((e) => e.type).sort()).toEqual(["ADMLLOG_DELETE", "ADMLLOG_DELETE", "ADMLLOG_INSERT", "ADMLLOG_INSERT", "ADMLLOG_UPDATE"]);
    for (const entry of entries) {
      const text = JSON.stringify(entry);
      expect(text).not.toContain(first);
      expect(text).not.toContain(second);
      expect(entry.object).toBe(`private tag ${tag.id}`);
    }
  });

  it("still names a public tag, which everyone sees", async () => {
    const { owner, version } = await createFileScene();
    const admin = await createAdmin();
    const name = unique("invoices ");
    const tag = await makeTag(owner.token, { name });
    await attach(owner.token, tag.id, version.id);
    const entries = await tagLogs(admin.token, tag.id);
    expect(entries).toHaveLength(2);
    for (const entry of entries) expect(entry.object).toBe(name);
    expect(entries.some((e) => e.message.includes(name))).toBe(true);
  });
});
