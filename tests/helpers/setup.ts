import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";

const url = inject("databaseUrl");
if (url) {
  process.env.DATABASE_URL = url;
  process.env.DATABASE_POOL_SIZE = "4";
} else {
  delete process.env.DATABASE_URL;
  process.env.PGLITE_MEMORY = "1";
  // This file's database starts from the run's migrated image (global-setup.ts).
  process.env.PGLITE_TEMPLATE = inject("pgliteTemplate");
}
process.env.DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "coffre-test-"));
process.env.AUTH_SECRET ??= "test-secret-test-secret-test-secret";

// STORAGE=s3 TEST_S3=1: blobs on the run's s3rver, in a bucket of this test file's own (as
// DATA_DIR is), so listings of the store see only this file's blobs.
const s3Endpoint = inject("s3Endpoint");
if (s3Endpoint && !process.env.S3_BUCKET) {
  const { s3Env } = await import("./s3rver");
  const bucket = `coffre-${randomBytes(6).toString("hex")}`;
  Object.assign(process.env, s3Env(s3Endpoint, bucket));
  const { S3Client, CreateBucketCommand } = await import("@aws-sdk/client-s3");
  const client = new S3Client({
    endpoint: s3Endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: process.env.S3_ACCESS_KEY_ID!, secretAccessKey: process.env.S3_SECRET_ACCESS_KEY! },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
}
