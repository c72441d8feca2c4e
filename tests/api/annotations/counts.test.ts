import { beforeAll, describe, expect, it } from "vitest";
import * as createRoute from "@/app/api/annotation/route";
import * as countsRoute from "@/app/api/annotations/counts/route";
import * as targetRoute from "@/app/api/annotations/[targetId]/[type]/route";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

beforeAll(openDatabase, OPEN_TIMEOUT);

const counts = (token: string | null, query: Record<string, string>) => call(countsRoute.GET, { method: "GET", token, query });
const annotate = async (user: TestUser, target_id: number, target_type: "file" | "folder", text = "note") =>
  expect((await call(createRoute.POST, { method: "POST", token: user.token, body: { target_id, target_type, text } })).status).toBe(201);

describe("GET /annotations/counts", () => {
  it("counts the comments of listed files (by any version) and folders, with what the caller has not read", async () => {
    const { owner, other: reader, folder, file, version } = await createFileScene();
    await grantRight(folder.id, reader.id, allRightsBut("delete"));
    const quiet = await uploadText(owner, folder.id, "quiet.txt", "q");
    await annotate(owner, version.id, "file", "first");
    await annotate(owner, version.id, "file", "second");
    await annotate(reader, version.id, "file", "mine");
    await annotate(owner, folder.id, "folder");
    const next = await uploadText(owner, folder.id, file.name, "a new version of the scene's file");

    const query = { files: `${version.id},${quiet.version.id}`, folders: String(folder.id) };
    const res = await counts(reader.token, query);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ files: { [version.id]: { total: 3, unread: 2 } }, folders: { [folder.id]: { total: 1, unread: 1 } } });
    // The same file through its newer version id.
    expect((await counts(reader.token, { files: String(next.version.id) })).body.files[next.version.id]).toEqual({ total: 3, unread: 2 });

    // Listing a target's comments reads them.
    await call(targetRoute.GET, { method: "GET", token: reader.token, params: { targetId: String(version.id), type: "file" } });
    expect((await counts(reader.token, query)).body.files[version.id]).toEqual({ total: 3, unread: 0 });
  });

  it("leaves out what the caller may not read, without saying whether it exists", async () => {
    const { owner, other, folder, version } = await createFileScene();
    await annotate(owner, version.id, "file");
    const stranger = await createTestUser();
    expect((await counts(stranger.token, { files: String(version.id), folders: String(folder.id) })).body).toEqual({ files: {}, folders: {} });
    await grantRight(folder.id, other.id, allRightsBut("read"));
    expect((await counts(other.token, { files: String(version.id) })).body).toEqual({ files: {}, folders: {} });
    expect((await counts(owner.token, { files: `${version.id},2000000000` })).body.files).toEqual({ [version.id]: { total: 1, unread: 0 } });
  });

  it("refuses malformed lists and asks for a token", async () => {
    const { owner } = await createFileScene();
    expectError(await counts(owner.token, { files: "1,abc" }), 400, "invalid_request");
    expectError(await counts(owner.token, { folders: Array.from({ length: 1001 }, (_, i) => i + 1).join(",") }), 400, "invalid_request");
    await expectAuthRequired(countsRoute.GET, { method: "GET", query: { files: "1" } });
  });
});
