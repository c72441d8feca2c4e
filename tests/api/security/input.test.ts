import { beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as authRoute from "@/app/api/auth/route";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import * as foldersRoute from "@/app/api/folders/route";
import { createTestUser } from "../../helpers/factories";
import { uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { createSharedScene, OPEN_TIMEOUT, openDatabase, postFolder, putFolder } from "../folders/fixtures";

// Issue 11, findings 7, 10 and 12: bounded JSON bodies, no NUL in any string, no invisible
// format characters in names.
beforeAll(openDatabase, OPEN_TIMEOUT);

const MiB = 1024 * 1024;

/** A body that sends `first` bytes, then never ends: a route that waits for the whole body hangs. */
function endlessBody(first: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= first) return new Promise(() => {});
      const chunk = new Uint8Array(64 * 1024).fill(0x20);
      pulled += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

describe("JSON bodies are bounded at 1 MiB (finding 7)", () => {
  it("refuses a declared 20 MB body to POST /api/auth with 413 before reading it", async () => {
    const body = endlessBody(256 * 1024);
    const res = await call(authRoute.POST, { method: "POST", path: "/api/auth", rawBody: body.stream, headers: { "content-type": "application/json", "content-length": String(20 * MiB) } });
    expectError(res, 413, "payload_too_large");
  });

  it("refuses a body without a length once it passes 1 MiB, without waiting for its end", async () => {
    const body = endlessBody(2 * MiB);
    const res = await call(authRoute.POST, { method: "POST", path: "/api/auth", rawBody: body.stream, headers: { "content-type": "application/json" } });
    expectError(res, 413, "payload_too_large");
  });

  it("refuses an oversized body on an authenticated route too, and still reads one under the limit", async () => {
    const user = await createTestUser();
    const big = JSON.stringify({ firstname: "x".repeat(MiB + 10) });
    expectError(await call(accountRoute.PUT, { method: "PUT", token: user.token, rawBody: big, headers: { "content-type": "application/json" } }), 413, "payload_too_large");
    const fine = await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { firstname: "Ada" } });
    expect(fine.status, fine.text).toBe(200);
  });
});

describe("NUL in any string is a 400 (finding 10)", () => {
  it("refuses a NUL in a JSON field, a query value and a path parameter, never a 500", async () => {
    const { owner, work } = await createSharedScene();
    expectError(await call(accountRoute.PUT, { method: "PUT", token: owner.token, body: { firstname: "Ada\u0000" } }), 400, "invalid_request");
    expectError(await call(accountRoute.PUT, { method: "PUT", token: owner.token, body: { nested: { deep: ["ok", "a\u0000b"] } } }), 400, "invalid_request");
    expectError(await postFolder(owner.token, { name: "a\u0000b", parent_id: work.id }), 400);
    expectError(await call(foldersRoute.GET, { token: owner.token, query: { keyword: "x\u0000" } }), 400, "invalid_request");
    const res = await call(fileRoute.GET, { path: "/api/file/1", params: { fileId: "1\u0000" }, token: owner.token });
    expectError(res, 400, "invalid_request");
    expect(res.body.details[0].path).toBe("params.fileId");
  });

  it("refuses a NUL in a login at sign-in without logging a failed query", async () => {
    expectError(await call(authRoute.POST, { method: "POST", path: "/api/auth", body: { login: "admin\u0000", password: "x" } }), 400, "invalid_request");
  });
});

describe("names refuse invisible format characters (finding 12)", () => {
  it("refuses a right-to-left override, zero-width spaces and a byte-order mark in folder and file names", async () => {
    const { owner, work } = await createSharedScene();
    for (const name of ["invoice\u202Efdp.exe", "\u200Breport", "report\uFEFF", "a\u2066b\u2069", "soft\u00ADhyphen", "rep\u200Dort.pdf"]) {
      const res = await postFolder(owner.token, { name, parent_id: work.id });
      expectError(res, 400, "invalid_name");
      // The message quotes the name with the character escaped, so it cannot reorder the message itself.
      expect(res.body.error).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\u00ad]/);
    }
    const file = await uploadText(owner, work.id, "notes.txt", "hello");
    const rename = await call(fileRoute.PUT, { method: "PUT", path: `/api/file/${file.version.id}`, params: { fileId: String(file.version.id) }, token: owner.token, body: { name: "notes\u202Etxt.exe" } });
    expectError(rename, 400, "invalid_name");
  });

  it("keeps names that need joiners: emoji sequences and Persian words", async () => {
    const { owner, work } = await createSharedScene();
    for (const name of ["Family 👨\u200D👩\u200D👧", "می\u200Cخواهم"]) {
      const res = await postFolder(owner.token, { name, parent_id: work.id });
      expect(res.status, res.text).toBe(201);
    }
    const created = await postFolder(owner.token, { name: "Plain", parent_id: work.id });
    expectError(await putFolder(owner.token, created.body.id, { name: "Pl\u202Eain" }), 400, "invalid_name");
  });
});
