import { execFile } from "node:child_process";
import os from "node:os";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, serverCrashes, signIn, startApp, type AppServer } from "./app-server";

// Issue 18, part 3: WebDAV at /dav/ on the BUILT server, driven by real clients: litmus (its
// summary lines read, since it exits 0 whatever fails: environment.md, trap 15) and rclone
// (a tree up and down, byte-identical), plus the refusals checked over plain HTTP.

const run = promisify(execFile);
const PASSWORD = "Dav-passw0rd-long";
/** The litmus suites finished so far; each must report 0 failed and 0 warnings. */
const SUITES = ["basic", "copymove", "props", "locks", "http"];

let app: AppServer;
let dataDir: string;
let admin: string;
let owner: { login: string; token: string; root: number };
let reader: { login: string; token: string };

const basic = (login: string, password = PASSWORD) => `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;
const dav = (p: string, init: RequestInit & { login?: string } = {}) =>
  fetch(`${app.url}/dav/${p}`, { ...init, headers: { authorization: basic(init.login ?? owner.login), ...(init.headers as Record<string, string>) } });

async function createUser(login: string) {
  const res = await api(app.url, admin, "POST", "/user", { login, password: PASSWORD, email: `${login}@example.com`, role: 2 });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const token = await signIn(app.url, login, PASSWORD);
  const account = await api(app.url, token, "GET", "/account");
  return { login, token, root: account.body.roots[0] as number };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-dav-"));
  app = await startApp({ DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL ?? "" });
  admin = await signIn(app.url);
  owner = await createUser(`davowner${randomBytes(3).toString("hex")}`);
  reader = await createUser(`davreader${randomBytes(3).toString("hex")}`);
});
afterAll(async () => {
  await app?.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("WebDAV: authentication and refusals", () => {
  it("answers 401 with a Basic challenge without credentials, and with a wrong password", async () => {
    const none = await fetch(`${app.url}/dav/`, { method: "PROPFIND", headers: { depth: "0" } });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Basic realm="Coffre"/);
    const wrong = await dav("", { method: "PROPFIND", headers: { depth: "0", authorization: basic(owner.login, "nope") } });
    expect(wrong.status).toBe(401);
  });

  it("accepts an API token as Bearer", async () => {
    const res = await fetch(`${app.url}/dav/`, { method: "PROPFIND", headers: { depth: "1", authorization: `Bearer ${owner.token}` } });
    expect(res.status).toBe(207);
    expect(await res.text()).toContain("<D:href>/dav/Private/</D:href>");
  });

  it("advertises class 1 and 2 on OPTIONS", async () => {
    const res = await dav("", { method: "OPTIONS" });
    expect(res.status).toBe(200);
    expect(res.headers.get("dav")).toBe("1, 2");
    expect(res.headers.get("allow")).toContain("PROPFIND");
  });

  it("refuses Depth: infinity with propfind-finite-depth, a DOCTYPE and a body over 1 MiB", async () => {
    const inf = await dav("Private/", { method: "PROPFIND", headers: { depth: "infinity" } });
    expect(inf.status).toBe(403);
    expect(await inf.text()).toContain("propfind-finite-depth");
    const dtd = await dav("Private/", {
      method: "PROPFIND",
      headers: { depth: "0", "content-type": "application/xml" },
      body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><D:propfind xmlns:D="DAV:"><D:prop><D:displayname>&e;</D:displayname></D:prop></D:propfind>',
    });
    expect(dtd.status).toBe(400);
    const big = await dav("Private/", { method: "PROPFIND", headers: { depth: "0", "content-type": "application/xml" }, body: "<a>" + "x".repeat((1 << 20) + 10) + "</a>" });
    expect(big.status).toBe(413);
  });

  it("refuses names with NUL or bidi characters", async () => {
    const res = await dav(`Private/${encodeURIComponent("evil\u202Etxt.exe")}`, { method: "PUT", body: "x" });
    expect(res.status).toBe(400);
    const nul = await dav(`Private/${encodeURIComponent("a\u0000b")}`, { method: "MKCOL" });
    expect(nul.status).toBe(400);
  });
});

describe("WebDAV: files through the API's services", () => {
  it("PUT makes a file, a second PUT a new version; GET and ranges read it; ETag is the MD5", async () => {
    const first = Buffer.from("first content\n");
    const second = Buffer.from("second, longer content\n");
    const created = await dav("Private/notes.txt", { method: "PUT", body: first });
    expect(created.status).toBe(201);
    const replaced = await dav("Private/notes.txt", { method: "PUT", body: second });
    expect(replaced.status).toBe(204);
    const md5 = createHash("md5").update(second).digest("hex");
    expect(replaced.headers.get("etag")).toBe(`"${md5}"`);

    const got = await dav("Private/notes.txt");
    expect(got.status).toBe(200);
    expect(got.headers.get("etag")).toBe(`"${md5}"`);
    expect(Buffer.from(await got.arrayBuffer()).equals(second)).toBe(true);
    const range = await dav("Private/notes.txt", { headers: { range: "bytes=0-5" } });
    expect(range.status).toBe(206);
    expect(await range.text()).toBe("second");
    const head = await dav("Private/notes.txt", { method: "HEAD" });
    expect(head.headers.get("content-length")).toBe(String(second.length));

    const listed = await api(app.url, owner.token, "GET", `/folder/${owner.root}?depth=1`);
    const file = listed.body.content.files.find((f: { name: string }) => f.name === "notes.txt");
    const versions = await api(app.url, owner.token, "GET", `/file/${file.id}/versions`);
    expect(versions.body.length).toBe(2);

    const props = await dav("Private/notes.txt", { method: "PROPFIND", headers: { depth: "0" } });
    const xml = await props.text();
    expect(props.status).toBe(207);
    expect(xml).toContain(`<D:getetag>"${md5}"</D:getetag>`);
    expect(xml).toContain(`<D:getcontentlength>${second.length}</D:getcontentlength>`);
    expect(xml).toMatch(/<D:getlastmodified>\w{3}, \d\d \w{3} \d{4} /);
  });

  it("MKCOL makes folders (409 without parent, 405 over one, 415 with a body); DELETE sends to the trash", async () => {
    expect((await dav("Private/docs", { method: "MKCOL" })).status).toBe(201);
    expect((await dav("Private/docs", { method: "MKCOL" })).status).toBe(405);
    expect((await dav("Private/none/deeper", { method: "MKCOL" })).status).toBe(409);
    expect((await dav("Private/body", { method: "MKCOL", body: "<x/>" })).status).toBe(415);
    expect((await dav("Private/none/file.txt", { method: "PUT", body: "x" })).status).toBe(409);
    expect((await dav("Private/docs/gone.txt", { method: "PUT", body: "bye" })).status).toBe(201);
    expect((await dav("Private/docs/gone.txt", { method: "DELETE" })).status).toBe(204);
    expect((await dav("Private/docs/gone.txt")).status).toBe(404);
    const trash = await api(app.url, owner.token, "GET", "/trashes");
    expect(JSON.stringify(trash.body)).toContain("gone.txt");
  });

  it("refuses a user with browse and read but no write (403), and one with no right at all", async () => {
    await dav("Private/shared", { method: "MKCOL" });
    await dav("Private/shared/read-me.txt", { method: "PUT", body: "readable" });
    const listed = await api(app.url, owner.token, "GET", `/folder/${owner.root}?depth=1`);
    const folder = listed.body.content.folders.find((f: { name: string }) => f.name === "shared");
    const right = await api(app.url, owner.token, "POST", "/right", { folder_id: folder.id, target_id: (await api(app.url, reader.token, "GET", "/account")).body.id, browse: true, read: true, download: true });
    expect(right.status, JSON.stringify(right.body)).toBe(201);

    const root = await dav("", { method: "PROPFIND", headers: { depth: "1" }, login: reader.login });
    expect(await root.text()).toContain("<D:href>/dav/shared/</D:href>");
    const read = await dav("shared/read-me.txt", { login: reader.login });
    expect(read.status).toBe(200);
    expect(await read.text()).toBe("readable");
    expect((await dav("shared/new.txt", { method: "PUT", body: "no", login: reader.login })).status).toBe(403);
    expect((await dav("shared/read-me.txt", { method: "PUT", body: "no", login: reader.login })).status).toBe(403);
    expect((await dav("shared/sub", { method: "MKCOL", login: reader.login })).status).toBe(403);
    expect((await dav("shared/read-me.txt", { method: "DELETE", login: reader.login })).status).toBe(403);
    // The owner's private space is not the reader's: its name resolves to the reader's own.
    expect((await dav("Private/notes.txt", { login: reader.login })).status).toBe(404);
  });
});

describe("WebDAV locks on our file locks", () => {
  it("a LOCK is the API's lock; changes need its token in If; UNLOCK releases both", async () => {
    expect((await dav("Private/locked.txt", { method: "PUT", body: "v1" })).status).toBe(201);
    const lockinfo = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>tests</D:owner></D:lockinfo>';
    const locked = await dav("Private/locked.txt", { method: "LOCK", headers: { "content-type": "application/xml", timeout: "Second-600" }, body: lockinfo });
    expect(locked.status).toBe(200);
    const token = /^<(opaquelocktoken:[0-9a-f-]+)>$/.exec(locked.headers.get("lock-token") ?? "")?.[1];
    expect(token).toBeDefined();
    expect(await locked.text()).toContain(`<D:href>${token}</D:href>`);

    const listed = await api(app.url, owner.token, "GET", `/folder/${owner.root}?depth=1`);
    const file = listed.body.content.files.find((f: { name: string }) => f.name === "locked.txt");
    const apiLock = await api(app.url, owner.token, "GET", `/lock/${file.id}`);
    expect(apiLock.body.locked).toBe(true);
    expect(apiLock.body.owner_id).toBe(String((await api(app.url, owner.token, "GET", "/account")).body.id));

    const without = await dav("Private/locked.txt", { method: "PUT", body: "v2" });
    expect(without.status).toBe(423);
    expect(await without.text()).toContain("lock-token-submitted");
    expect((await dav("Private/locked.txt", { method: "DELETE" })).status).toBe(423);
    expect((await dav("Private/locked.txt", { method: "PUT", body: "v2", headers: { if: "(<opaquelocktoken:00000000-0000-0000-0000-000000000000>)" } })).status).toBe(412);
    expect((await dav("Private/locked.txt", { method: "PUT", body: "v2", headers: { if: `(<${token}>)` } })).status).toBe(204);
    const discovery = await dav("Private/locked.txt", { method: "PROPFIND", headers: { depth: "0" }, body: '<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>' });
    expect(await discovery.text()).toContain(token);

    expect((await dav("Private/locked.txt", { method: "UNLOCK", headers: { "lock-token": `<${token}>` } })).status).toBe(204);
    expect((await api(app.url, owner.token, "GET", `/lock/${file.id}`)).body.locked).toBe(false);
    expect((await dav("Private/locked.txt", { method: "PUT", body: "v3" })).status).toBe(204);
  });
});

describe("WebDAV with real clients", () => {
  it("rclone copies a tree up and back byte-identical", async () => {
    const up = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-dav-up-"));
    const down = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-dav-down-"));
    try {
      const tree: Record<string, Buffer> = {
        "a.bin": randomBytes(300_000),
        "empty.txt": Buffer.alloc(0),
        "sub/b.txt": Buffer.from("hello from rclone\n"),
        "sub/deeper/ünïcode name.dat": randomBytes(5000),
      };
      for (const [name, bytes] of Object.entries(tree)) {
        fs.mkdirSync(path.dirname(path.join(up, name)), { recursive: true });
        fs.writeFileSync(path.join(up, name), bytes);
      }
      const { stdout: obscured } = await run("rclone", ["obscure", PASSWORD]);
      const flags = ["--webdav-url", `${app.url}/dav/`, "--webdav-user", owner.login, "--webdav-pass", obscured.trim(), "--webdav-vendor", "other", "--config", "/dev/null"];
      await run("rclone", ["copy", up, ":webdav:Private/tree", ...flags]);
      await run("rclone", ["copy", ":webdav:Private/tree", down, ...flags]);
      for (const [name, bytes] of Object.entries(tree)) expect(fs.readFileSync(path.join(down, name)).equals(bytes), name).toBe(true);
    } finally {
      fs.rmSync(up, { recursive: true, force: true });
      fs.rmSync(down, { recursive: true, force: true });
    }
  });

  it("litmus: every finished suite passes with no warnings", async () => {
    const { stdout } = await run("litmus", [`${app.url}/dav/Private/`, owner.login, PASSWORD], { env: { ...process.env, TESTS: SUITES.join(" ") }, maxBuffer: 1 << 24, cwd: os.tmpdir() }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    const summaries = [...stdout.matchAll(/<- summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g)];
    expect(summaries.map((m) => m[1]), stdout).toEqual(SUITES);
    for (const m of summaries) expect(Number(m[4]), `${m[1]}:\n${stdout}`).toBe(0);
    expect(stdout, stdout).not.toMatch(/warning/i);
  });

  it("left no crash in the server's output", () => {
    expect(serverCrashes()).toEqual([]);
  });
});
