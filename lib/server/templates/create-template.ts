import "server-only";
import { fileTemplates } from "@/db/schema";
import type { CreateTemplateInput, TemplateResponse } from "@/lib/contracts/templates";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import { validateName } from "../files/names";
import { getFolderOrThrow } from "../folders/get-folder";
import { presentTemplates } from "./present-templates";

/**
 * POST /template/file (api.md): makes a template of a file the caller may read and download (the
 * template's users will get its bytes). It is offered in `parent_id` and below, where the caller
 * needs the write right (default: the file's folder), or on the whole platform (`parent_id` 0,
 * administrators). The template shares the version's blob: nothing is copied. 201.
 */
export async function createTemplate(ctx: AuthedCtx, input: CreateTemplateInput): Promise<TemplateResponse> {
  const user = ctx.actor.user;
  const source = await getFileOrThrow(ctx.db, user, input.file_id, "read");
  if (!source.rights.download) throw new AppError("forbidden", "A template is made of a file you may download");
  if (!source.version.blobId) throw new AppError("not_found", "The content of this file is missing");
  const name = validateName(input.name ?? source.file.name);
  let folderId: number | null;
  if (input.parent_id === 0) {
    if (user.role !== 3) throw new AppError("forbidden", "Only administrators make platform-wide templates");
    folderId = null;
  } else {
    folderId = (await getFolderOrThrow(ctx.db, user, input.parent_id ?? source.folder.id, "write")).folder.id;
  }
  return ctx.db.transaction(async (tx) => {
    const [template] = await tx
      .insert(fileTemplates)
      .values({
        name,
        description: input.description?.trim() ?? "",
        folderId,
        blobId: source.version.blobId!,
        size: source.version.size,
        md5: source.version.md5,
        mime: source.version.mime,
        sourceVersionId: source.version.id,
        ownerId: user.id,
      })
      .returning();
    await writeLog(tx, logWho(ctx, tx), {
      type: "ADMLLOG_INSERT",
      message: folderId === null ? "Platform-wide file template created" : "File template created",
      objectType: "file_template",
      objectId: template.id,
      object: template.name,
    });
    return (await presentTemplates(tx, user, [template]))[0];
  });
}
