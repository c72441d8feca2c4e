import "server-only";
import fs from "node:fs";
import { Writable } from "node:stream";
import type { Md5 } from "./md5";

export type FileSinkOptions = {
  /** `w` (a new work file) or `r+` (bytes at `start` of an existing one). */
  flags: "w" | "r+";
  start?: number;
  /** Fed with every byte in the order written; its back-pressure is the sink's. */
  md5?: Md5 | null;
  /** One byte more than this fails the stream with `tooLarge()` before the batch holding it is written. */
  maxBytes?: number;
  tooLarge?: () => Error;
  /** Keeps a copy of the first `headBytes` (content sniffing). */
  headBytes?: number;
  /** fdatasync before the stream finishes: the bytes are durable once `pipeline` resolves. */
  flush?: boolean;
};

const MiB = 1 << 20;

/**
 * The last stage of an upload's stream, in one place instead of a chain of transforms (each
 * costs a turn of the stream machinery per 64 KiB socket read): bytes counted and capped, hashed
 * and written at their position. While one write is in flight, what arrives is buffered and goes
 * down in the next single writev, so the socket's small reads become large writes; the hash of a
 * batch runs while it is written. With `flush`, one fdatasync at the end.
 */
export class FileSink extends Writable {
  /** Bytes accepted (written or being written). */
  bytes = 0;
  private fd: number | null = null;
  private position: number;
  private readonly head: Buffer | null;
  private headFilled = 0;

  constructor(
    private readonly file: string,
    private readonly options: FileSinkOptions,
  ) {
    super({ highWaterMark: 2 * MiB });
    this.position = options.start ?? 0;
    this.head = options.headBytes ? Buffer.allocUnsafe(options.headBytes) : null;
  }

  /** The first bytes kept by `headBytes`. */
  headView(): Uint8Array {
    return this.head ? new Uint8Array(this.head.buffer, this.head.byteOffset, this.headFilled) : new Uint8Array();
  }

  override _construct(callback: (error?: Error | null) => void) {
    fs.open(this.file, this.options.flags, (error, fd) => {
      if (error) return callback(error);
      this.fd = fd;
      callback();
    });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void) {
    this.writeBatch([chunk], callback);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (error?: Error | null) => void) {
    this.writeBatch(
      chunks.map((c) => c.chunk),
      callback,
    );
  }

  override _final(callback: (error?: Error | null) => void) {
    if (!this.options.flush || this.fd === null) return callback();
    fs.fdatasync(this.fd, (error) => callback(error));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    if (this.fd === null) return callback(error);
    const fd = this.fd;
    this.fd = null;
    fs.close(fd, (closeError) => callback(error ?? closeError));
  }

  private writeBatch(buffers: Buffer[], callback: (error?: Error | null) => void) {
    let length = 0;
    for (const b of buffers) length += b.length;
    const max = this.options.maxBytes ?? Number.POSITIVE_INFINITY;
    if (this.bytes + length > max) return callback(this.options.tooLarge?.() ?? new Error("Too many bytes"));
    this.bytes += length;
    if (this.head && this.headFilled < this.head.length) {
      for (const b of buffers) {
        if (this.headFilled >= this.head.length) break;
        this.headFilled += b.copy(this.head, this.headFilled, 0, Math.min(b.length, this.head.length - this.headFilled));
      }
    }
    // The write goes first: the hash of the batch (on this thread or the worker's) runs meanwhile.
    let pending = 2;
    let failure: Error | null = null;
    const settle = (error?: Error | null) => {
      failure ??= error ?? null;
      if (--pending === 0) callback(failure);
    };
    this.writeAll(buffers, length, settle);
    const md5 = this.options.md5;
    let behind: Promise<void> | undefined;
    if (md5) {
      for (let i = 0; i < buffers.length && !behind; i++) {
        const wait = md5.update(buffers[i]);
        // The worker hasher makes us wait only when it is behind (bounded memory): the rest of the batch follows it.
        if (wait) {
          behind = wait.then(async () => {
            for (const rest of buffers.slice(i + 1)) await md5.update(rest);
          });
        }
      }
    }
    if (behind) behind.then(() => settle(), settle);
    else settle();
  }

  /** writev until every byte is down (a write may take part of the batch). */
  private writeAll(buffers: Buffer[], length: number, done: (error?: Error | null) => void) {
    const position = this.position;
    this.position += length;
    const loop = (rest: Buffer[], at: number, left: number) => {
      if (this.fd === null) return done(new Error("The file was closed"));
      fs.writev(this.fd, rest, at, (error, written) => {
        if (error) return done(error);
        if (written === left) return done();
        // Partial: drop what was written and go on.
        let skip = written;
        while (skip > 0 && rest[0].length <= skip) skip -= rest.shift()!.length;
        if (skip > 0) rest[0] = rest[0].subarray(skip);
        loop(rest, at + written, left - written);
      });
    };
    loop(buffers.slice(), position, length);
  }
}
