import "server-only";
import { createMd5, type Md5 } from "@/lib/storage/md5";

/** Uploads followed at once; past this, the oldest lose their running hash (and are hashed at the end). */
const MAX_TRACKED = 1000;

/**
 * The running MD5 of a chunked upload whose chunks arrive in order (the usual case: one client
 * sending chunk 0, 1, 2...), computed while each chunk is written, so the last chunk does not read
 * the whole data file again (issue 12: that read was a third of a chunked upload's time).
 *
 * It covers bytes [0, offset) of the data file, and is trusted only while every change to that
 * file since it was created went through it: a chunk out of order, two chunks written at once,
 * a failed write, a chunk written before this process saw the upload, or a change made by
 * another process between two writes (the file's mtime is not the one the last hashed write
 * left) drops it, and the data file is then hashed once when the upload completes, as before.
 * It lives in this process only. (A write by another process at the very moment of one of ours
 * goes unseen, as it would during the final read of the file.)
 */
type Tracked = { md5: Md5; offset: number; mtimeNs: bigint | null; inUse: boolean; spoiled: boolean };

type State = { tracked: Map<string, Tracked>; writing: Map<string, number> };
const shared = globalThis as unknown as { __coffreChunkHashes?: State };
const state = (shared.__coffreChunkHashes ??= { tracked: new Map(), writing: new Map() });

/**
 * A write of `uploadId`'s data file at `offset` begins. Returns the running hash to feed with the
 * bytes written when this write continues it (`file`: the data file's size and mtime as opened),
 * or null (the write goes unhashed, and a running hash it would make stale is dropped). Every
 * call is paired with `endChunkWrite`. A hash being fed is never aborted under its writer (the
 * worker hasher would wait for its buffers forever): it is marked spoiled and its writer drops it.
 */
export function beginChunkWrite(uploadId: string, offset: number, file: { size: number; mtimeNs: bigint }, totalBytes: number | undefined): Md5 | null {
  const active = state.writing.get(uploadId) ?? 0;
  state.writing.set(uploadId, active + 1);
  const tracked = state.tracked.get(uploadId);
  if (active > 0) {
    // Two writes at once: neither can tell what the other leaves in the file.
    if (tracked) spoil(uploadId, tracked);
    return null;
  }
  if (offset === 0 && file.size === 0) {
    // A fresh data file: its hash starts here (one left from a file since removed is stale).
    if (tracked) spoil(uploadId, tracked);
    const md5 = createMd5(totalBytes);
    state.tracked.set(uploadId, { md5, offset: 0, mtimeNs: null, inUse: true, spoiled: false });
    evictOldest();
    return md5;
  }
  if (tracked && !tracked.spoiled && tracked.offset === offset && tracked.mtimeNs === file.mtimeNs) {
    tracked.inUse = true;
    return tracked.md5;
  }
  if (tracked) spoil(uploadId, tracked);
  return null;
}

/**
 * The write begun by `beginChunkWrite` is over: with `done` (the bytes are durable, `mtimeNs` the
 * file's modification time after them), the running hash moves to `offset + written`; otherwise
 * (a failure, a refusal) it is dropped, since it may hold bytes the file does not.
 */
export async function endChunkWrite(uploadId: string, md5: Md5 | null, done: { written: number; offset: number; mtimeNs: bigint } | null): Promise<void> {
  try {
    if (!md5) return;
    const tracked = state.tracked.get(uploadId);
    if (!tracked || tracked.md5 !== md5 || tracked.spoiled || !done) {
      md5.abort();
      if (tracked?.md5 === md5) state.tracked.delete(uploadId);
      return;
    }
    try {
      // Between two requests, the hash holds no buffer of this upload.
      await md5.flush();
    } catch {
      md5.abort();
      if (state.tracked.get(uploadId) === tracked) state.tracked.delete(uploadId);
      return;
    }
    tracked.inUse = false;
    if (tracked.spoiled || state.tracked.get(uploadId) !== tracked) {
      md5.abort();
      if (state.tracked.get(uploadId) === tracked) state.tracked.delete(uploadId);
      return;
    }
    tracked.offset = done.offset + done.written;
    tracked.mtimeNs = done.mtimeNs;
  } finally {
    const left = (state.writing.get(uploadId) ?? 1) - 1;
    if (left > 0) state.writing.set(uploadId, left);
    else state.writing.delete(uploadId);
  }
}

/**
 * The MD5 of the whole data file when the running hash covers all of its bytes (`file.size`) and
 * the file is as its last hashed write left it (`mtimeNs`); undefined otherwise (the caller hashes
 * the file).
 */
export async function takeChunkMd5(uploadId: string, file: { size: number; mtimeNs: bigint }): Promise<string | undefined> {
  const tracked = state.tracked.get(uploadId);
  if (!tracked) return undefined;
  if ((state.writing.get(uploadId) ?? 0) > 0 || tracked.inUse || tracked.spoiled || tracked.offset !== file.size || tracked.mtimeNs !== file.mtimeNs) {
    spoil(uploadId, tracked);
    return undefined;
  }
  state.tracked.delete(uploadId);
  return tracked.md5.digest().catch(() => undefined);
}

/** How many bytes of the upload the running hash covers, or null without one (tests, diagnostics). */
export function runningHashOffset(uploadId: string): number | null {
  const tracked = state.tracked.get(uploadId);
  return tracked && !tracked.spoiled ? tracked.offset : null;
}

/** The upload is over (committed, dropped, expired): its running hash goes. */
export function forgetChunkHash(uploadId: string) {
  const tracked = state.tracked.get(uploadId);
  if (tracked) spoil(uploadId, tracked);
}

/** Drops a running hash: at once when idle, by its writer (endChunkWrite) when being fed. */
function spoil(uploadId: string, tracked: Tracked) {
  if (state.tracked.get(uploadId) === tracked) state.tracked.delete(uploadId);
  if (tracked.inUse) tracked.spoiled = true;
  else tracked.md5.abort();
}

function evictOldest() {
  while (state.tracked.size > MAX_TRACKED) forgetChunkHash(state.tracked.keys().next().value!);
}
