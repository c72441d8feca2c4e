import "server-only";
import { eq, sql } from "drizzle-orm";
import { archives, files, folders } from "@/db/schema";
import type { ArchiveResponse, UpdateArchiveInput } from "@/lib/contracts/archives";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { validateName } from "../files/names";
import { getOwnArchiveOrThrow } from "./archive-access";
import { presentArchive } from "./present-archives";

/** PUT /archive/file/(id) and /archive/folder/(id) (api.md): rename it (it comes back under that name) and comment it. */
export async function updateArchive(ctx: AuthedCtx, type: "file" | "folder", apiId: number, input: UpdateArchiveInput): Promise<ArchiveResponse> {
  const name = input.name === undefined ? undefined : validateName(input.name);
  return ctx.db.transaction(async (tx) => {
    const archive = await getOwnArchiveOrThrow(tx, ctx.actor.user, type, apiId, { lock: true });
    if (name !== undefined) {
      if (archive.type === "file") await tx.update(files).set({ name }).where(eq(files.id, archive.objectId));
      else await tx.update(folders).set({ name }).where(eq(folders.id, archive.objectId));
    }
    const [updated] = await tx
      .update(archives)
      .set({ ...(name !== undefined ? { name } : {}), ...(input.comment !== undefined ? { comment: input.comment.trim() } : {}), updatedAt: sql`now()` })
      .where(eq(archives.id, archive.id))
      .returning();
    await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_UPDATE", message: "Archive updated", objectType: "archive", objectId: archive.id, object: updated.name });
    return presentArchive(tx, updated);
  });
}
