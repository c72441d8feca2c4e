import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { uploads, type User } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { hashToken } from "../auth/tokens";
import { forgetChunkHash } from "./chunk-hashes";

export type UploadRow = typeof uploads.$inferSelect;

// Work files of unfinished uploads, on the blob store's filesystem so finishing is a rename:
// chunks in tempDir/chunks/<uploadId>/data, each at its offset, with an empty marker file
// <index> once it is durable; tus data in tempDir/tus/<uploadId> (+ .json).
// cancel-upload.ts and collect-uploads.ts rely on this layout.
export const chunksRoot = () => path.join(getBlobStore().tempDir, "chunks");
export const incomingDir = () => path.join(chunksRoot(), ".incoming");
export const tusDir = () => path.join(getBlobStore().tempDir, "tus");
export const chunkDir = (uploadId: string) => path.join(chunksRoot(), safeId(uploadId));
export const chunkDataFile = (uploadId: string) => path.join(chunkDir(uploadId), "data");
export const tusFile = (uploadId: string) => path.join(tusDir(), safeId(uploadId));

/** An upload id is only ever a file name: nothing else may reach a path or rm. */
function safeId(uploadId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(uploadId)) throw new Error(`Invalid upload id ${uploadId.slice(0, 80)}`);
  return uploadId;
}

/**
 * A chunked upload is identified by what its requests repeat (the contract has no session id):
 * the same user sending the same name, to the same place, with the same size and chunk count.
 */
export function chunkedUploadId(user: Pick<User, "id">, key: { folderId: number; targetPath: string; name: string; fileSize?: number; chunks: number; scope?: string }): string {
  const parts: (string | number)[] = [user.id, key.folderId, key.targetPath, key.name.normalize("NFC").toLowerCase(), key.fileSize ?? "?", key.chunks];
  // Drop-link deposits all run as the link's owner: the scope keeps two visitors' chunks apart.
  if (key.scope) parts.push(key.scope);
  return `c${createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 40)}`;
}

/** The tus upload id (and uploads row id) of a session key: its hash, so the key itself is never stored. */
export const tusUploadId = (sessionKey: string) => `t${hashToken(sessionKey).slice(0, 40)}`;

/**
 * Claims an upload for finishing, so two requests completing it at once commit it once. A claim
 * older than an hour is a process that died while finishing: it may be taken over.
 */
export async function claimUpload(db: DbOrTx, uploadId: string, userId: number): Promise<UploadRow | null> {
  const [row] = await db
    .update(uploads)
    .set({ context: sql`coalesce(${uploads.context}, '{}'::jsonb) || jsonb_build_object('finishing', now())`, updatedAt: new Date() })
    .where(
      and(
        eq(uploads.id, uploadId),
        eq(uploads.userId, userId),
        sql`(${uploads.context}->>'finishing' IS NULL OR (${uploads.context}->>'finishing')::timestamptz < now() - interval '1 hour')`,
      ),
    )
    .returning();
  return row ?? null;
}

/** Gives a claimed upload back (the client may fix it and try again). */
export async function releaseUpload(db: DbOrTx, uploadId: string) {
  await db
    .update(uploads)
    .set({ context: sql`coalesce(${uploads.context}, '{}'::jsonb) - 'finishing'` })
    .where(eq(uploads.id, uploadId));
}

/** Forgets an upload: its row and its work files. */
export async function dropUpload(db: DbOrTx, uploadId: string) {
  await db.delete(uploads).where(eq(uploads.id, uploadId));
  await removeWorkFiles(uploadId);
}

export async function removeWorkFiles(uploadId: string) {
  forgetChunkHash(uploadId);
  const targets = [chunkDir(uploadId), tusFile(uploadId), `${tusFile(uploadId)}.json`];
  await Promise.all(targets.map((t) => fs.rm(t, { recursive: true, force: true })));
}
