import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/file/upload/route";
import { getDriver } from "@/db";
import { fileResponse } from "@/lib/contracts/files";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { createFolder } from "../../helpers/files";
import { call } from "../../helpers/http";
import { countQueries, routeRoundTrips, routeWork } from "../../helpers/query-count";
import { multipartBody, openDatabase, randomFile } from "../../helpers/upload-factories";

beforeAll(openDatabase, 180_000);

// Small uploads (issue 26, item 4): the database work of one whole multipart upload, pinned so
// that it cannot silently grow again. On PostgreSQL, the round trips one after the other:
//   1. the session with its user;
//   2. BEGIN with what the commit decides on: the folder and the rights, the name's lock and the
//      file of that name with its lock, the quota locks and count, the new rows' ids;
//   3. every write (file, version, event, alerts, log, derivatives, blob, folder date) with COMMIT.
// A body this small is stored before its target is checked (the commit checks it and deletes the
// blob when it refuses), and the answer is built from what the commit read: nothing before the
// transaction but the session, nothing after it.
const ROUND_TRIPS = 3;
// 1 + BEGIN + 7 + 8 + COMMIT on PostgreSQL; PGlite's driver shows no BEGIN and COMMIT.
const STATEMENTS = { postgres: 18, pglite: 16 };

const upload = (user: TestUser, folderId: number, name: string, size = 64 * 1024) => {
  const { body, contentType } = multipartBody([
    { name: "folderId", value: String(folderId) },
    { name: "targetFile", filename: name, data: randomFile(size).data },
  ]);
  return call(POST, { method: "POST", path: "/api/file/upload", token: user.token, rawBody: body, headers: { "content-type": contentType, "content-length": String(body.length) } });
};

/**
 * Uploads enough, several at once, that every pooled connection has run every statement of an
 * upload, of a new file and of a new version: a statement a connection has not prepared yet costs
 * it a round trip more, and makes postgres.js run the rest of that transaction one statement at a
 * time.
 */
async function warmUp(user: TestUser, folderId: number) {
  for (let round = 0; round < 6; round++) {
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => upload(user, folderId, `warm-${round % 3}-${i}.bin`)));
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
  }
}

// Over 1 MiB, the target is checked before a byte is stored (the admission): one round trip more,
// its four statements sent together (folder, rights, the file of that name with its lock, quotas).
const ADMISSION = { roundTrips: 1, statements: 4 };

async function counted(send: () => ReturnType<typeof call>) {
  const { result, statements, batches } = await countQueries(send);
  expect(result.status, result.text).toBe(201);
  const work = routeWork(statements);
  // A reload of the platform configuration (cached 2 s) may fall in the call on a loaded machine.
  const roundTrips = routeRoundTrips({ statements, batches });
  const listing = statements.map((s, i) => `${batches[i]}: ${s.replace(/\s+/g, " ").slice(0, 120)}`).join("\n");
  return { body: fileResponse.parse(result.body), work, roundTrips, listing };
}

describe("one small upload (POST /file/upload, 64 KiB, folderId before the file)", () => {
  it("costs a fixed number of statements and round trips, for a new file and for a new version", async () => {
    const driver = await getDriver();
    const user = await createTestUser();
    const folder = await createFolder(user, user.privateRootId!, "small");
    await warmUp(user, folder.id);

    const created = await counted(() => upload(user, folder.id, "report.bin"));
    expect(created.body).toMatchObject({ name: "report.bin", parent_id: folder.id, size: 64 * 1024, lock: null });
    expect(created.work, created.listing).toHaveLength(STATEMENTS[driver]);
    if (driver === "postgres") expect(created.roundTrips, created.listing).toBe(ROUND_TRIPS);

    // A second upload of the name is its next version: the same work, the file updated instead of inserted.
    const version = await counted(() => upload(user, folder.id, "report.bin"));
    expect(version.body).toMatchObject({ name: "report.bin", size: 64 * 1024 });
    expect(version.body.id).not.toBe(created.body.id);
    expect(version.work, version.listing).toHaveLength(STATEMENTS[driver]);
    if (driver === "postgres") expect(version.roundTrips, version.listing).toBe(ROUND_TRIPS);
  });

  it("costs one round trip more over 1 MiB: the admission, before a byte is stored", async () => {
    const driver = await getDriver();
    const user = await createTestUser();
    const folder = await createFolder(user, user.privateRootId!, "large");
    await warmUp(user, folder.id);
    const size = 1024 * 1024 + 1;
    // Warm the admission's statements too.
    await Promise.all(Array.from({ length: 4 }, (_, i) => upload(user, folder.id, `warm-large-${i}.bin`, size)));

    const large = await counted(() => upload(user, folder.id, "large.bin", size));
    expect(large.body).toMatchObject({ name: "large.bin", size });
    expect(large.work, large.listing).toHaveLength(STATEMENTS[driver] + ADMISSION.statements);
    if (driver === "postgres") expect(large.roundTrips, large.listing).toBe(ROUND_TRIPS + ADMISSION.roundTrips);
  });
});
