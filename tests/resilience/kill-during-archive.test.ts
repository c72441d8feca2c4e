import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type AppServer, folderFiles, makeFolder, privateRootOf, serverCrashes, signIn, startApp, uploadFile } from "./app-server";

// A 100 MB folder is archived and the server is killed with SIGKILL while a blob is being
// written to the archive tier. The folder never shows half-moved; once the server is back, the
// move finishes. Then it is restored, killed again while bytes are written back, and once back
// every file is byte-identical.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-archive-"));
const MiB = 1 << 20;
const env = { DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL ?? "", ARCHIVE_COMPRESSION: "gzip" };
const sql = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
let app: AppServer;
let token: string;

beforeAll(async () => {
  app = await startApp(env);
  token = await signIn(app.url);
}, 120_000);

afterAll(async () => {
  await app?.kill("SIGTERM");
  await sql.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const md5 = (data: Uint8Array) => createHash("md5").update(data).digest("hex");

/** Partial blobs being written in a store (its temporary names), with their sizes. */
function partsInProgress(store: "archive" | "blobs" = "archive"): number[] {
  const tmp = path.join(dataDir, store, "tmp");
  if (!fs.existsSync(tmp)) return [];
  return fs.readdirSync(tmp).flatMap((name) => {
    try {
      return name.endsWith(".part") ? [fs.statSync(path.join(tmp, name)).size] : [];
    } catch {
      return [];
    }
  });
}

async function until<T>(what: string, check: () => Promise<T | null | undefined> | T | null | undefined, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("archiving survives kill -9 in the middle of the move", () => {
  it("never shows a half-moved tree, finishes after a restart and restores byte-identical", { timeout: 600_000 }, async () => {
    const root = await privateRootOf(app.url, token);
    const folderId = await makeFolder(app.url, token, root, `Archive me ${randomBytes(3).toString("hex")}`);
    const subId = await makeFolder(app.url, token, folderId, "inner");
    // 100 MB in five files of 20 MB (random: compression gains nothing, the move takes its time).
    const contents = new Map<string, { folder: number; md5: string }>();
    for (let i = 0; i < 5; i++) {
      const data = randomBytes(20 * MiB);
      const name = `part-${i}.bin`;
      const folder = i % 2 === 0 ? folderId : subId;
      const res = await uploadFile(app.url, token, folder, name, data);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      contents.set(name, { folder, md5: md5(data) });
    }

    const archived = await api(app.url, token, "PUT", `/folder/${folderId}/archive`);
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(archived.body).toMatchObject({ state: "pending", nb_files: 5, nb_folders: 2, size: 100 * MiB });
    const archiveId = archived.body.id as number;
    // Hidden at once, whole.
    expect((await api(app.url, token, "GET", `/folder/${folderId}`)).status).toBe(404);
    expect((await api(app.url, token, "GET", `/folder/${subId}`)).status).toBe(404);

    // Kill while a blob of the archive is being written.
    await until("an archive blob being written", () => partsInProgress().some((size) => size > MiB));
    await app.kill("SIGKILL");

    const [state] = await sql`SELECT state FROM archives WHERE id = ${archiveId}`;
    expect(state.state).toBe("pending");
    const counts = async () => {
      const [r] = await sql`
        SELECT
          (SELECT count(*)::int FROM file_versions v JOIN archive_items i ON i.item_type = 'file' AND i.item_id = v.file_id AND i.archive_id = ${archiveId}) AS live,
          (SELECT count(*)::int FROM archive_versions WHERE archive_id = ${archiveId}) AS moved`;
      return r as { live: number; moved: number };
    };
    const split = await counts();
    // Every version is wholly on one side: none lost, none twice.
    expect(split.live + split.moved).toBe(5);
    expect(split.live).toBeGreaterThan(0);
    const hidden = await sql`SELECT count(*)::int AS n FROM folders WHERE id IN (${folderId}, ${subId}) AND deleted_at IS NULL`;
    expect(hidden[0].n).toBe(0);

    // The killed worker's claim lapses (5 minutes in production; fast-forwarded here), then the restarted server goes on.
    await sql`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE kind = 'archives.move' AND status = 'running'`;
    app = await startApp(env, app.port);
    token = await signIn(app.url);
    expect((await api(app.url, token, "GET", `/folder/${folderId}`)).status).toBe(404);
    const done = await until("the archive to be settled", async () => {
      const res = await api(app.url, token, "GET", `/archive/folder/${folderId}`);
      return res.body?.state === "archived" ? res.body : null;
    });
    expect(done.stored_size).toBeGreaterThan(0);
    expect(await counts()).toEqual({ live: 0, moved: 5 });

    // Back, byte-identical, although the restore is killed half-way too: the folder stays hidden until every byte is back.
    const restore = await api(app.url, token, "PUT", `/archive/folder/${folderId}/unarchive`, {});
    expect(restore.status, JSON.stringify(restore.body)).toBe(200);
    expect(restore.body.state).toBe("restoring");
    await until("a live blob being written back", () => partsInProgress("blobs").some((size) => size > MiB));
    await app.kill("SIGKILL");
    const [restoring] = await sql`SELECT state FROM archives WHERE id = ${archiveId}`;
    expect(restoring.state).toBe("restoring");
    expect((await sql`SELECT count(*)::int AS n FROM folders WHERE id IN (${folderId}, ${subId}) AND deleted_at IS NULL`)[0].n).toBe(0);
    await sql`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE kind = 'archives.restore' AND status = 'running'`;
    app = await startApp(env, app.port);
    token = await signIn(app.url);
    await until("the folder to be back", async () => (await api(app.url, token, "GET", `/folder/${folderId}`)).status === 200);
    expect(await sql`SELECT id FROM archives WHERE id = ${archiveId}`).toEqual([]);
    const found = [...(await folderFiles(app.url, token, folderId)), ...(await folderFiles(app.url, token, subId))];
    expect(found.map((f) => f.name).sort()).toEqual([...contents.keys()].sort());
    for (const file of found) {
      expect(file.hash, file.name).toBe(contents.get(file.name)!.md5);
      const res = await fetch(`${app.url}/api/file/${file.id}/download`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(md5(new Uint8Array(await res.arrayBuffer())), file.name).toBe(contents.get(file.name)!.md5);
    }
    expect(serverCrashes()).toEqual([]);
  });
});
