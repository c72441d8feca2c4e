import { randomBytes } from "node:crypto";
import postgres from "postgres";
import type { TestProject } from "vitest/node";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    /** With TEST_S3=1: the s3rver every test file keeps its blobs on (a bucket of its own each). */
    s3Endpoint: string;
    /** With TEST_S3=1: that s3rver's folder (tests age blobs through its files' mtimes). */
    s3Directory: string;
  }
}

/** Creates a throwaway database for the run, migrated once, and drops it at the end. */
export default async function setup(project: TestProject) {
  const stopS3 = await startTestS3(project);
  if (process.env.TEST_DB === "pglite") {
    project.provide("databaseUrl", "");
    return stopS3;
  }
  const name = `coffre_test_${randomBytes(4).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  const { getDb, closeDb } = await import("../../db");
  await getDb();
  await closeDb();
  project.provide("databaseUrl", url.toString());
  return async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await stopS3?.();
  };
}

/** `STORAGE=s3 TEST_S3=1`: the whole suite on a real s3rver, started here for the run. */
async function startTestS3(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_S3 !== "1") {
    project.provide("s3Endpoint", "");
    project.provide("s3Directory", "");
    return undefined;
  }
  const { startS3rver } = await import("./s3rver");
  const server = await startS3rver();
  project.provide("s3Endpoint", server.endpoint);
  project.provide("s3Directory", server.directory);
  return () => server.stop();
}
