import { execFile } from "node:child_process";
import os from "node:os";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { sessions } from "@/db/schema";
import { hashToken, newToken } from "@/lib/server/auth/tokens";
import { davHandler } from "@/lib/server/dav/dav-handler";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { serveNode } from "../../helpers/node-server";

// WebDAV (issue 18, part 3) on the handler server.ts mounts, over real HTTP, on both databases
// (TEST_DB=pglite too): litmus's suites, and the refusals. The built server: tests/resilience/webdav.test.ts.

const run = promisify(execFile);
let server: Awaited<ReturnType<typeof serveNode>>;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  server = await serveNode(davHandler);
  owner = await createTestUser();
  other = await createTestUser();
});
afterAll(async () => {
  await server.close();
});

const basic = (user: TestUser, password = user.password) => `Basic ${Buffer.from(`${user.login}:${password}`).toString("base64")}`;
const dav = (p: string, init: RequestInit & { as?: TestUser } = {}) =>
  fetch(`${server.url}/dav/${p}`, { ...init, headers: { authorization: basic(init.as ?? owner), ...(init.headers as Record<string, string>) } });

describe("WebDAV handler", () => {
  it("passes litmus (basic, copymove, props, locks, http) with no failure and no warning", async () => {
    const { stdout } = await run("litmus", [`${server.url}/dav/Private/`, owner.login, owner.password], { maxBuffer: 1 << 24, cwd: os.tmpdir() }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    const summaries = [...stdout.matchAll(/<- summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g)];
    expect(summaries.map((m) => [m[1], m[4]]), stdout).toEqual([["basic", "0"], ["copymove", "0"], ["props", "0"], ["locks", "0"], ["http", "0"]]);
    expect(stdout, stdout).not.toMatch(/warning/i);
  }, 180_000);

  it("refuses no credentials (401 with the Basic challenge), a wrong password and a bad token", async () => {
    const none = await fetch(`${server.url}/dav/`, { method: "PROPFIND", headers: { depth: "0" } });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Basic realm="Coffre"/);
    expect((await dav("", { method: "PROPFIND", headers: { depth: "0", authorization: basic(owner, "wrong-password") } })).status).toBe(401);
    const bad = await fetch(`${server.url}/dav/`, { method: "PROPFIND", headers: { depth: "0", authorization: "Bearer not-a-token" } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toMatch(/^Basic realm="Coffre"/);
  });

  it("accepts the user's API token as Bearer and lists their spaces", async () => {
    const res = await fetch(`${server.url}/dav/`, { method: "PROPFIND", headers: { depth: "1", authorization: `Bearer ${owner.token}` } });
    expect(res.status).toBe(207);
    const xml = await res.text();
    expect(xml).toContain("<D:href>/dav/Private/</D:href>");
  });

  it("holds OAuth2 tokens to the files area: files.read reads but does not write, other areas are refused", async () => {
    const scoped = async (scope: string) => {
      const token = newToken();
      await (await getDb()).insert(sessions).values({ tokenHash: hashToken(token), userId: owner.id, kind: "api", scope });
      return { authorization: `Bearer ${token}` };
    };
    const reader = await scoped("files.read");
    expect((await fetch(`${server.url}/dav/Private/`, { method: "PROPFIND", headers: { depth: "1", ...reader } })).status).toBe(207);
    expect((await fetch(`${server.url}/dav/Private/scoped.txt`, { method: "PUT", body: "x", headers: reader })).status).toBe(403);
    const elsewhere = await scoped("users.readwrite");
    expect((await fetch(`${server.url}/dav/Private/`, { method: "PROPFIND", headers: { depth: "0", ...elsewhere } })).status).toBe(403);
    const writer = await scoped("files.readwrite");
    expect((await fetch(`${server.url}/dav/Private/scoped.txt`, { method: "PUT", body: "x", headers: writer })).status).toBe(201);
  });

  it("refuses a user lacking write or edit (403) and hides others' folders (404)", async () => {
    const shared = await createFolder(owner, owner.privateRootId!, "dav-shared");
    await uploadText(owner, shared.id, "doc.txt", "content");
    await grantRight(shared.id, other.id, allRightsBut("write", "edit", "delete"));
    const listed = await (await dav("", { method: "PROPFIND", headers: { depth: "1" }, as: other })).text();
    expect(listed).toContain("<D:href>/dav/dav-shared/</D:href>");
    const read = await dav("dav-shared/doc.txt", { as: other });
    expect(read.status).toBe(200);
    expect(await read.text()).toBe("content");
    expect((await dav("dav-shared/new.txt", { method: "PUT", body: "x", as: other })).status).toBe(403);
    expect((await dav("dav-shared/doc.txt", { method: "PUT", body: "x", as: other })).status).toBe(403);
    expect((await dav("dav-shared/doc.txt", { method: "DELETE", as: other })).status).toBe(403);
    expect((await dav("dav-shared/sub", { method: "MKCOL", as: other })).status).toBe(403);
    expect((await dav("dav-shared/doc.txt", { method: "MOVE", headers: { destination: "/dav/Private/doc.txt" }, as: other })).status).toBe(403);
    // "Private" is each caller's own space: the owner's files are not reachable through it.
    expect((await dav("Private/dav-shared/doc.txt", { as: other })).status).toBe(404);
  });

  it("lists a folder's files only with the read right on it, as GET /folder does (browse alone shows its subfolders)", async () => {
    const shared = await createFolder(owner, owner.privateRootId!, "dav-browse-only");
    await createFolder(owner, shared.id, "visible-sub");
    await uploadText(owner, shared.id, "hidden-name.txt", "content");
    await grantRight(shared.id, other.id, allRightsBut("read", "download", "write", "edit", "delete", "share"));
    const listed = await (await dav("dav-browse-only/", { method: "PROPFIND", headers: { depth: "1" }, as: other })).text();
    expect(listed).toContain("<D:href>/dav/dav-browse-only/visible-sub/</D:href>");
    expect(listed).not.toContain("hidden-name");
    await grantRight(shared.id, other.id, allRightsBut("download", "write", "edit", "delete", "share"));
    const readable = await (await dav("dav-browse-only/", { method: "PROPFIND", headers: { depth: "1" }, as: other })).text();
    expect(readable).toContain("<D:href>/dav/dav-browse-only/hidden-name.txt</D:href>");
  });

  it("refuses Depth: infinity, DTDs, oversized XML bodies and bidi names", async () => {
    const inf = await dav("Private/", { method: "PROPFIND", headers: { depth: "infinity" } });
    expect(inf.status).toBe(403);
    expect(await inf.text()).toContain("<D:propfind-finite-depth/>");
    const dtd = await dav("Private/", { method: "PROPFIND", headers: { depth: "0" }, body: '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>' });
    expect(dtd.status).toBe(400);
    const big = await dav("Private/", { method: "PROPPATCH", body: "<a>" + "x".repeat((1 << 20) + 1) + "</a>" });
    expect(big.status).toBe(413);
    expect((await dav(`Private/${encodeURIComponent("a\u202Egnp.exe")}`, { method: "PUT", body: "x" })).status).toBe(400);
  });

  it("MOVE renames in place when only the case changes; COPY onto itself is refused", async () => {
    expect((await dav("Private/case.txt", { method: "PUT", body: "abc" })).status).toBe(201);
    expect((await dav("Private/case.txt", { method: "COPY", headers: { destination: "/dav/Private/case.txt" } })).status).toBe(403);
    expect((await dav("Private/case.txt", { method: "MOVE", headers: { destination: "/dav/Private/CASE.txt" } })).status).toBe(201);
    const listed = await (await dav("Private/", { method: "PROPFIND", headers: { depth: "1" } })).text();
    expect(listed).toContain("<D:href>/dav/Private/CASE.txt</D:href>");
    expect(await (await dav("Private/CASE.txt")).text()).toBe("abc");
  });

  it("answers quota-used-bytes and quota-available-bytes when asked", async () => {
    const res = await dav("Private/", { method: "PROPFIND", headers: { depth: "0" }, body: '<D:propfind xmlns:D="DAV:"><D:prop><D:quota-used-bytes/><D:quota-available-bytes/></D:prop></D:propfind>' });
    const xml = await res.text();
    expect(xml).toMatch(/<D:quota-used-bytes>\d+<\/D:quota-used-bytes>/);
  });

  it("answers an expected 507 (quota exhausted) without logging it as a crash", async () => {
    const small = await createTestUser({ quota: 10 });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await dav("Private/too-big.bin", { method: "PUT", body: "x".repeat(100), as: small });
      expect(res.status).toBe(507);
      expect(await res.json()).toMatchObject({ code: "insufficient_storage" });
      // Without Content-Length: cut while it streams, the same 507.
      const streamed = await dav("Private/too-big.bin", { method: "PUT", body: Readable.toWeb(Readable.from([Buffer.alloc(64), Buffer.alloc(64)])) as ReadableStream, duplex: "half", as: small } as RequestInit);
      expect(streamed.status).toBe(507);
      expect(logged.mock.calls).toEqual([]);
    } finally {
      logged.mockRestore();
    }
  });
});
