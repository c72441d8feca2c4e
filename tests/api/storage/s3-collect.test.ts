import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { blobs, users } from "@/db/schema";
import { collectBlobs } from "@/lib/server/blobs/collect-blobs";
import { checkHealth } from "@/lib/server/platform/check-health";
import { getBlobStore } from "@/lib/storage";
import { S3BlobStore } from "@/lib/storage/s3-store";
import { createTestUser } from "../../helpers/factories";
import { uploadText } from "../../helpers/files";
import { s3Env, startS3rver, type S3rverHandle } from "../../helpers/s3rver";
import { openDatabase } from "../../helpers/upload-factories";

// Garbage collection and health with STORAGE=s3, on a real s3rver of this file's own. S3 cannot
// backdate an object's LastModified: the grace period is shortened instead, and waited out.
let server: S3rverHandle;
const cache = globalThis as unknown as { __coffreBlobs?: unknown };
const GRACE_MS = 3000;

const put = async (text: string) => (await getBlobStore().put(Readable.from([Buffer.from(text)]))).id;
const present = async (id: string) => (await getBlobStore().size(id)) !== null;

beforeAll(async () => {
  server = await startS3rver("collect-test");
  Object.assign(process.env, s3Env(server.endpoint, server.bucket));
  cache.__coffreBlobs = undefined;
  await openDatabase();
}, 180_000);

afterAll(async () => {
  cache.__coffreBlobs = undefined;
  await server?.stop();
});

describe("STORAGE=s3", () => {
  it("getBlobStore() is the S3 store and health reports the bucket reachable", async () => {
    expect(getBlobStore()).toBeInstanceOf(S3BlobStore);
    expect(await checkHealth()).toEqual({ status: "ok", db: "ok", storage: "ok" });
  });

  it("blobs.collect deletes old unreferenced blobs and orphans in the bucket, keeps referenced and young ones", async () => {
    const user = await createTestUser();
    const db = await getDb();
    const orphan = await put("crashed before commit");
    const picture = await put("a picture");
    await db.update(users).set({ pictureBlobId: picture }).where(eq(users.id, user.id));
    const { version } = await uploadText(user, user.privateRootId!, "kept.txt", "kept");
    const unused = await put("unused");
    await db.insert(blobs).values({ id: unused, size: 6, md5: "x".repeat(32), createdAt: new Date(Date.now() - 2 * GRACE_MS) });

    await new Promise((resolve) => setTimeout(resolve, GRACE_MS + 1500));
    const inFlight = await put("being committed");
    await collectBlobs(db, { graceMs: GRACE_MS });

    expect(await present(orphan)).toBe(false);
    expect(await present(unused)).toBe(false);
    expect(await present(inFlight)).toBe(true);
    expect(await present(picture)).toBe(true);
    expect(await present(version.blobId!)).toBe(true);
    const listed = new Set<string>();
    for await (const id of getBlobStore().list()) listed.add(id);
    expect(listed).toEqual(new Set([inFlight, picture, version.blobId!]));
  }, 60_000);

  it("health reports the storage down when the bucket cannot be reached", async () => {
    await server.stop();
    cache.__coffreBlobs = undefined;
    expect(await checkHealth()).toEqual({ status: "degraded", db: "ok", storage: "down" });
  });
});
