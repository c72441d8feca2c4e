import "server-only";
import type { IncomingMessage } from "node:http";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { FileStore } from "@tus/file-store";
import { ERRORS } from "@tus/server";
import type { Upload } from "@tus/utils";
import { createMd5, type Md5 } from "@/lib/storage/md5";

const MiB = 1 << 20;
/** Uploads followed at once; past this, the oldest lose their running hash (and are hashed at the end). */
const MAX_TRACKED = 1000;

/**
 * The tus file store, computing each upload's MD5 while its bytes arrive, so finishing it is a
 * rename instead of reading the whole file again. The running hash lives in this process: an
 * upload resumed after a restart, on another process, or after a failed write has none, and its
 * MD5 is then computed from the file when it is finished.
 */
export class HashingFileStore extends FileStore {
  private readonly hashes = new Map<string, { md5: Md5; offset: number }>();

  async create(upload: Upload): Promise<Upload> {
    const created = await super.create(upload);
    this.forget(upload.id);
    this.track(upload.id, createMd5(upload.size), 0);
    return created;
  }

  /**
   * FileStore's write (bytes appended at `offset` through a write stream, any failure reported as
   * tus's FILE_WRITE_ERROR), with the MD5 fed in the same pass. One transform instead of two
   * stacked pipelines, and a 1 MiB write buffer, so the socket's 64 KiB reads go to disk in large
   * writes (FileStore's stream used the 16 KiB default: one write per read).
   */
  async write(readable: IncomingMessage | Readable, id: string, offset: number): Promise<number> {
    const tracked = this.hashes.get(id);
    this.hashes.delete(id);
    let md5: Md5 | null = null;
    if (tracked && tracked.offset === offset) md5 = tracked.md5;
    else tracked?.md5.abort();
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw ERRORS.FILE_NOT_FOUND;
    let received = 0;
    const meter = new Transform({
      highWaterMark: MiB,
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        const behind = md5?.update(chunk);
        if (behind) behind.then(() => done(null, chunk), done);
        else done(null, chunk);
      },
    });
    try {
      // Every byte hashed is a byte the store wrote (same pipeline); after a failure, the hash is dropped.
      await pipeline(readable, meter, createWriteStream(path.join(this.directory, id), { flags: "r+", start: offset, highWaterMark: MiB }));
    } catch {
      md5?.abort();
      throw ERRORS.FILE_WRITE_ERROR;
    }
    // The bytes are written whatever happens to the hash: without one, finishing reads the file.
    if (md5) await md5.flush().then(() => this.track(id, md5, offset + received), () => md5.abort());
    return offset + received;
  }

  async remove(id: string): Promise<void> {
    this.forget(id);
    await super.remove(id);
  }

  /** The MD5 of a complete upload of `size` bytes, when it was followed from its first byte. */
  async takeMd5(id: string, size: number): Promise<string | undefined> {
    const tracked = this.hashes.get(id);
    this.hashes.delete(id);
    if (!tracked) return undefined;
    if (tracked.offset !== size) {
      tracked.md5.abort();
      return undefined;
    }
    return tracked.md5.digest().catch(() => undefined);
  }

  private track(id: string, md5: Md5, offset: number) {
    this.hashes.set(id, { md5, offset });
    if (this.hashes.size > MAX_TRACKED) this.forget(this.hashes.keys().next().value!);
  }

  private forget(id: string) {
    this.hashes.get(id)?.md5.abort();
    this.hashes.delete(id);
  }
}
