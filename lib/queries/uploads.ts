"use client";

import { useSyncExternalStore } from "react";
import * as tus from "tus-js-client";
import { api } from "@/lib/api-client";
import type { tusSessionResponse } from "@/lib/contracts/uploads";
import type { fileResponse } from "@/lib/contracts/files";
import type { folderResponse } from "@/lib/contracts/folders";
import { CHUNK_SIZE, uploadErrorStatus } from "@/lib/upload-client/chunked-upload";

export type UploadStatus = "queued" | "uploading" | "paused" | "finishing" | "done" | "error";
export type UploadProblem = "quota" | "network" | "forbidden" | "locked" | "tooLarge" | "generic";

export type UploadItem = {
  id: string;
  name: string;
  /** The sub-folders of a dropped folder, below the target ("photos/2024"), or "". */
  dir: string;
  size: number;
  sent: number;
  /** Bytes per second, smoothed. */
  speed: number;
  status: UploadStatus;
  problem?: UploadProblem;
  /** A file of that name is already there: the upload becomes its next version. */
  isNewVersion: boolean;
  /** Picked up where an earlier attempt (before a reload) stopped. */
  isResumed: boolean;
};

type Entry = { item: UploadItem; file: File; folderId: number; upload?: tus.Upload; token?: string; sample?: { at: number; bytes: number } };

const FINGERPRINT_PREFIX = "coffre-upload";
const CONCURRENCY = 3;

let entries: Entry[] = [];
let snapshot: UploadItem[] = [];
const listeners = new Set<() => void>();
let onFinished: (() => void) | null = null;
const folderPaths = new Map<string, Promise<number>>();

function publish() {
  snapshot = entries.map((e) => e.item);
  listeners.forEach((l) => l());
}

function update(entry: Entry, patch: Partial<UploadItem>) {
  entry.item = { ...entry.item, ...patch };
  publish();
}

/** The uploads of this page, for the progress panel. */
export function useUploads(): UploadItem[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => snapshot,
    () => EMPTY,
  );
}
const EMPTY: UploadItem[] = [];

/** Called once per finished file (the browser refreshes its lists). */
export const setUploadFinishedHandler = (handler: (() => void) | null) => void (onFinished = handler);

/** A dropped file's folders below the drop target: react-dropzone's `path` ("./a/b/f.txt" or "/a/b/f.txt"), else webkitRelativePath. */
function relativeDir(file: File): string {
  const raw = (file as File & { path?: string; relativePath?: string }).relativePath || (file as File & { path?: string }).path || file.webkitRelativePath || "";
  const parts = raw.replace(/^\.?\//, "").split("/").filter(Boolean);
  return parts.slice(0, -1).join("/");
}

/**
 * Queues files for `folderId`. Dropped folders are recreated first (an existing sub-folder of the
 * same name is reused), then each file goes through tus. `existingNames` are the names already
 * shown in the target folder: those uploads become new versions.
 */
export function enqueueUploads(files: File[], folderId: number, existingNames: Set<string>) {
  for (const file of files) {
    const dir = relativeDir(file);
    const item: UploadItem = {
      id: crypto.randomUUID(),
      name: file.name,
      dir,
      size: file.size,
      sent: 0,
      speed: 0,
      status: "queued",
      isNewVersion: dir === "" && existingNames.has(file.name),
      isResumed: false,
    };
    entries.push({ item, file, folderId });
  }
  publish();
  pump();
}

function pump() {
  const running = entries.filter((e) => e.item.status === "uploading" || e.item.status === "finishing").length;
  const next = entries.filter((e) => e.item.status === "queued").slice(0, Math.max(0, CONCURRENCY - running));
  for (const entry of next) void start(entry);
}

async function start(entry: Entry) {
  update(entry, { status: "uploading", problem: undefined });
  try {
    const target = await ensureFolderPath(entry.folderId, entry.item.dir);
    await startTus(entry, target);
  } catch (error) {
    fail(entry, error);
  }
}

async function startTus(entry: Entry, target: number) {
  const { file } = entry;
  const upload = new tus.Upload(file, {
    endpoint: "/api/tus",
    chunkSize: CHUNK_SIZE,
    retryDelays: [0, 1000, 3000, 5000, 10000],
    metadata: { filename: file.name, filetype: file.type || "application/octet-stream" },
    // The target folder is part of the fingerprint: the same file dropped elsewhere is another upload.
    fingerprint: async (f: File) => [FINGERPRINT_PREFIX, target, f.name, f.size, f.lastModified, f.type].join("::"),
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onShouldRetry: (error) => {
      const status = error.originalResponse?.getStatus() ?? 0;
      return status === 0 || status >= 500 || status === 409 || status === 423 || status === 429 ? status !== 507 : false;
    },
    onProgress: (bytes, total) => progress(entry, bytes, total),
    onSuccess: () => void finish(entry),
    onError: (error) => fail(entry, error),
  });
  entry.upload = upload;
  const previous = (await upload.findPreviousUploads()).find((p) => p.metadata.token);
  if (previous) {
    // The session key was kept with the fingerprint (tus-js-client stores the metadata): finishing needs it.
    entry.token = previous.metadata.token;
    upload.resumeFromPreviousUpload(previous);
    update(entry, { isResumed: true });
  } else {
    const [session] = await api.post<typeof tusSessionResponse>("/api/file/tus", { name: file.name, target, size: file.size });
    entry.token = session.sessionKey;
    upload.options.metadata = { ...upload.options.metadata, token: session.sessionKey };
  }
  if (entry.item.status === "uploading") upload.start();
}

function progress(entry: Entry, bytes: number, total: number) {
  const now = performance.now();
  const sample = entry.sample;
  let speed = entry.item.speed;
  if (!sample) entry.sample = { at: now, bytes };
  else if (now - sample.at > 300) {
    const instant = ((bytes - sample.bytes) * 1000) / (now - sample.at);
    speed = speed === 0 ? instant : speed * 0.7 + instant * 0.3;
    entry.sample = { at: now, bytes };
  }
  update(entry, { sent: bytes, size: total, speed });
}

async function finish(entry: Entry) {
  update(entry, { status: "finishing", sent: entry.item.size });
  try {
    await api.post<typeof fileResponse>("/api/file/tus", { token: entry.token });
    update(entry, { status: "done", speed: 0 });
    onFinished?.();
  } catch (error) {
    fail(entry, error);
  }
  pump();
}

function fail(entry: Entry, error: unknown) {
  update(entry, { status: "error", speed: 0, problem: describeUploadError(error) });
  entry.sample = undefined;
  pump();
}

function describeUploadError(error: unknown): UploadProblem {
  const status = uploadErrorStatus(error);
  if (status === 0) return "network";
  if (status === 507) return "quota";
  if (status === 413) return "tooLarge";
  if (status === 403 || status === 404) return "forbidden";
  if (status === 423) return "locked";
  return "generic";
}

/** The id of `dir` below `parentId`, creating the missing folders (one request chain per path, shared by its files). */
function ensureFolderPath(parentId: number, dir: string): Promise<number> {
  if (!dir) return Promise.resolve(parentId);
  const cacheKey = `${parentId}/${dir}`;
  const known = folderPaths.get(cacheKey);
  if (known) return known;
  const segments = dir.split("/");
  const name = segments.pop()!;
  const made = ensureFolderPath(parentId, segments.join("/")).then(async (parent) => {
    const current = await api.get<typeof folderResponse>(`/api/folder/${parent}?depth=0&filter=1`);
    const existing = current.content?.folders.find((f) => f.name === name);
    if (existing) return existing.id;
    onFinished?.();
    return (await api.post<typeof folderResponse>("/api/folder", { name, parent_id: parent })).id;
  });
  // A failure is not cached: a retry tries again.
  made.catch(() => folderPaths.delete(cacheKey));
  folderPaths.set(cacheKey, made);
  return made;
}

const find = (id: string) => entries.find((e) => e.item.id === id);

export function pauseUpload(id: string) {
  const entry = find(id);
  if (!entry || entry.item.status !== "uploading") return;
  void entry.upload?.abort(false);
  update(entry, { status: "paused", speed: 0 });
  entry.sample = undefined;
  pump();
}

export function resumeUpload(id: string) {
  const entry = find(id);
  if (!entry || entry.item.status !== "paused") return;
  update(entry, { status: "uploading" });
  if (entry.upload && entry.token) entry.upload.start();
  else void start(entry);
}

export function retryUpload(id: string) {
  const entry = find(id);
  if (!entry || entry.item.status !== "error") return;
  update(entry, { status: "queued", problem: undefined });
  pump();
}

/** Stops the upload and discards what the server received (tus termination). */
export function cancelUpload(id: string) {
  const entry = find(id);
  if (!entry) return;
  if (entry.item.status !== "done") void entry.upload?.abort(true).catch(() => {});
  entries = entries.filter((e) => e !== entry);
  publish();
  pump();
}

/** Forgets finished uploads (the panel's "Clear"). */
export function clearFinishedUploads() {
  entries = entries.filter((e) => e.item.status !== "done");
  publish();
}

/** How many uploads an earlier visit left unfinished (their fingerprints are still stored). */
export function countInterruptedUploads(): number {
  try {
    return Object.keys(window.localStorage).filter((k) => k.startsWith(`tus::${FINGERPRINT_PREFIX}`)).length;
  } catch {
    return 0;
  }
}
