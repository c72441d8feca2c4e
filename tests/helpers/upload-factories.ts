import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { eq } from "drizzle-orm";
import { getDb } from "@/db";
import { fileVersions, files, type User } from "@/db/schema";
import { commitUpload } from "@/lib/server/files/commit-upload";
import type { Handler } from "@/lib/server/http/route";
import { getBlobStore } from "@/lib/storage";
import { ctxFor } from "./files";

export type Part = { name: string; value: string } | { name: string; filename: string; data: Uint8Array; type?: string };

export const md5 = (data: Uint8Array) => createHash("md5").update(data).digest("hex");

/** Random bytes that compress to nothing, so sizes mean what they say. */
export function randomFile(size: number): { data: Buffer; md5: string } {
  const data = randomBytes(size);
  return { data, md5: md5(data) };
}

/** A multipart/form-data body with the parts in the given order (text parts may follow the file). */
export function multipartBody(parts: Part[]): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const boundary = `----coffre${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ("value" in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      // As browsers do: the name as raw UTF-8, quotes escaped as %22 (HTML's multipart encoding).
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename.replace(/"/g, "%22")}"\r\nContent-Type: ${part.type ?? "application/octet-stream"}\r\n\r\n`,
        ),
      );
      chunks.push(Buffer.from(part.data));
      chunks.push(Buffer.from("\r\n"));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const joined = Buffer.concat(chunks);
  return { body: new Uint8Array(joined.buffer as ArrayBuffer, joined.byteOffset, joined.length), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A request body that sends `bytes` of `body`, then fails like a client that went away. */
export function interruptedBody(body: Uint8Array, bytes: number): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new Uint8Array(body.subarray(0, bytes)));
        return;
      }
      controller.error(new Error("client went away"));
    },
  });
}

/** A request body served in 64 KiB pieces that counts how much of it the server pulled. */
export function countingBody(body: Uint8Array): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      const piece = body.subarray(offset, offset + 64 * 1024);
      offset += piece.length;
      controller.enqueue(new Uint8Array(piece));
    },
  });
  return { stream, pulled: () => offset };
}

/** Every blob id in the store: compare before and after to prove nothing was left behind. */
export async function listBlobIds(): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const id of getBlobStore().list()) ids.add(id);
  return ids;
}

/** Files left in the store's temporary area (partial blobs, chunk parts), recursively. */
export async function listTempFiles(): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string) {
    let entries: import("node:fs").Dirent[] = [];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else found.push(path.relative(getBlobStore().tempDir, full));
    }
  }
  await walk(getBlobStore().tempDir);
  return found;
}

/** MD5 of the stored content of a version, streamed back from the blob store. */
export async function storedMd5(versionId: number): Promise<{ md5: string; size: number }> {
  const db = await getDb();
  const [version] = await db.select().from(fileVersions).where(eq(fileVersions.id, versionId));
  const hash = createHash("md5");
  let size = 0;
  for await (const chunk of await getBlobStore().read(version.blobId!)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { md5: hash.digest("hex"), size };
}

/** The live files named `name` in a folder, with their versions. */
export async function filesNamed(folderId: number, name: string) {
  const db = await getDb();
  const found = await db.select().from(files).where(eq(files.folderId, folderId));
  const matching = found.filter((f) => f.name === name && f.deletedAt === null);
  return Promise.all(
    matching.map(async (file) => ({ file, versions: await db.select().from(fileVersions).where(eq(fileVersions.fileId, file.id)) })),
  );
}

/**
 * A real HTTP server (node:http) in front of route handlers, for clients that speak HTTP
 * themselves (tus-js-client): bodies stream both ways, as under Next.
 */
export async function startRouteServer(pick: (method: string, pathname: string) => Handler | undefined): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const handler = pick(req.method ?? "GET", url.pathname);
      if (!handler) {
        res.writeHead(404).end();
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(url, { method: req.method, headers, body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined, duplex: "half" } as RequestInit);
      const response = await handler(request, { params: Promise.resolve({}) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body && req.method !== "HEAD") await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), res);
      else res.end();
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Uploads `data` as `name` through commitUpload (rights, quotas and versions apply). */
export async function uploadBytes(user: User, folderId: number, name: string, data: Uint8Array, mime?: string) {
  const blob = await getBlobStore().put(Readable.from([Buffer.from(data)]));
  return commitUpload(await ctxFor(user), { folderId, name, blob, mime });
}

/**
 * Opens the database in a hook: a fresh PGlite takes seconds to create and migrate, which on a
 * busy machine would eat the first test's time limit. Use as `beforeAll(openDatabase, 180_000)`.
 */
export async function openDatabase() {
  await getDb();
}
