import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/file/upload/route";
import { getDriver } from "@/db";
import { fileResponse } from "@/lib/contracts/files";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { createFolder } from "../../helpers/files";
import { call } from "../../helpers/http";
import { countQueries, routeWork } from "../../helpers/query-count";
import { multipartBody, openDatabase, randomFile } from "../../helpers/upload-factories";

beforeAll(openDatabase, 180_000);

// Small uploads (issue 26, item 4): the database work of one whole multipart upload, pinned so
// that it cannot silently grow again. On PostgreSQL, the round trips one after the other:
//   1. the session with its user;
//   2. the admission, before a byte is stored: the folder, the rights, the file of that name
//      with its lock and the quotas, asked together;
//   3. BEGIN (postgres.js sends it alone);
//   4. what the commit decides on: the folder and rights again (they may have changed while the
//      bytes came), the name's lock and the file of that name, the quota locks and count, new ids;
//   5. every write (file, version, event, log, alerts, derivatives, blob, folder date);
//   6. COMMIT.
// The answer is built from what the commit read: no statement after it.
const ROUND_TRIPS = 6;
// 1 + 4 + BEGIN + 7 + 11 + COMMIT on PostgreSQL; PGlite's driver shows no BEGIN and COMMIT.
const STATEMENTS = { postgres: 25, pglite: 23 };

const upload = (user: TestUser, folderId: number, name: string) => {
  const { body, contentType } = multipartBody([
    { name: "folderId", value: String(folderId) },
    { name: "targetFile", filename: name, data: randomFile(64 * 1024).data },
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

async function counted(send: () => ReturnType<typeof call>) {
  const { result, statements, roundTrips, batches } = await countQueries(send);
  expect(result.status, result.text).toBe(201);
  const work = routeWork(statements);
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
});
