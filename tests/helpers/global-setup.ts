import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { TestProject } from "vitest/node";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    /** With TEST_DB=pglite: the image of a migrated database that every test file's database starts from. */
    pgliteTemplate: string;
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
    const template = await migratedPgliteImage();
    project.provide("pgliteTemplate", template.file);
    return async () => {
      await template.remove();
      await stopS3?.();
    };
  }
  project.provide("pgliteTemplate", "");
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

/**
 * On PGlite every test file has an in-memory database of its own. Migrated here once for the run
 * and saved with dumpDataDir(), each file's database loads this image (PGLITE_TEMPLATE, read by
 * db/index.ts) instead of running initdb and every migration again: 1.1-1.4 s of CPU instead of
 * 5.3-5.7 s a file. Built at each run from the migrations of the checkout, so it is never stale.
 */
async function migratedPgliteImage(): Promise<{ file: string; remove: () => Promise<void> }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "coffre-pglite-"));
  const remove = () => rm(folder, { recursive: true, force: true });
  try {
    // The test files' own settings (setup.ts): an in-memory database, made from scratch here.
    process.env.PGLITE_MEMORY = "1";
    delete process.env.PGLITE_TEMPLATE;
    delete process.env.DATABASE_URL;
    const { getDb, closeDb } = await import("../../db");
    try {
      const client = ((await getDb()) as unknown as { $client: PGlite }).$client;
      // With the migrations written to the data files, a database loaded from the image has no
      // WAL to replay (0.3 s a file without this).
      await client.exec("CHECKPOINT");
      const image = await client.dumpDataDir("none");
      const file = path.join(folder, "migrated.tar");
      await writeFile(file, Buffer.from(await image.arrayBuffer()));
      return { file, remove };
    } finally {
      await closeDb();
    }
  } catch (error) {
    await remove();
    throw error;
  }
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
