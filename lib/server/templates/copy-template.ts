import "server-only";
import type { CopyTemplateInput } from "@/lib/contracts/templates";
import type { AuthedCtx } from "../context";
import { commitUpload } from "../files/commit-upload";
import { validateName } from "../files/names";
import { presentCommitted, type FileJson } from "../files/present-files";
import { getFolderOrThrow } from "../folders/get-folder";
import type { Mode } from "../present/mode";
import { getVisibleTemplateOrThrow, templateNotFound } from "./template-access";

/**
 * POST /template/file/copy (api.md): a new file in `parent_id` (write right) from a template
 * offered there, named `name` (default: the template's name; a name taken gets a numbered name,
 * never a new version of someone's file). The file shares the template's blob: the bytes are not
 * copied. Quotas and locks apply as to any new file (commitUpload). 201 File.
 */
export async function copyTemplate(ctx: AuthedCtx, input: CopyTemplateInput, mode: Mode): Promise<FileJson> {
  const user = ctx.actor.user;
  const { folder } = await getFolderOrThrow(ctx.db, user, input.parent_id, "write");
  const { template } = await getVisibleTemplateOrThrow(ctx.db, user, input.template_id);
  if (template.folderId !== null && template.folderId !== folder.id && !folder.path.includes(template.folderId)) throw templateNotFound();
  const name = validateName(input.name?.trim() ? input.name : template.name);
  const result = await commitUpload(ctx, {
    folderId: folder.id,
    name,
    blob: { id: template.blobId, size: template.size, md5: template.md5 },
    mime: template.mime,
    sharedBlob: true,
    neverOverwrite: true,
  });
  return presentCommitted(ctx, result, mode);
}
