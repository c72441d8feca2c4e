import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileVersions, files, type FileTemplate, type User } from "@/db/schema";
import type { TemplateResponse } from "@/lib/contracts/templates";
import { iso } from "../present/envelope";
import { fileTypeOf } from "../previews/file-type";
import { loadThumbnails } from "../previews/thumbnail-fields";
import { resolveRights } from "../rights/resolve-rights";
import type { Rights } from "../rights/rights";
import { canManageTemplate } from "./template-access";

/**
 * The contract's File template. `thumb_token` is the thumbnail of the version the template was
 * made from, given only to callers who may read that version (the thumbnail route checks it).
 * `can_edit` (beyond the contract): whether the caller may change or delete it.
 */
export async function presentTemplates(db: DbOrTx, user: Pick<User, "id" | "role">, list: FileTemplate[], folderRights = new Map<number, Rights>()): Promise<TemplateResponse[]> {
  if (list.length === 0) return [];
  const sourceIds = list.map((t) => t.sourceVersionId).filter((id): id is number => id !== null);
  const sources = sourceIds.length
    ? await db
        .select({ versionId: fileVersions.id, folderId: files.folderId, name: files.name, mime: fileVersions.mime })
        .from(fileVersions)
        .innerJoin(files, eq(files.id, fileVersions.fileId))
        .where(and(inArray(fileVersions.id, sourceIds), isNull(fileVersions.deletedAt), isNull(files.deletedAt)))
    : [];
  const missing = [...new Set([...sources.map((s) => s.folderId), ...list.map((t) => t.folderId).filter((id): id is number => id !== null)])].filter((id) => !folderRights.has(id));
  const rights = new Map([...folderRights, ...(await resolveRights(db, user, missing))]);
  const readable = sources.filter((s) => rights.get(s.folderId)?.read);
  const thumbs = await loadThumbnails(db, user.id, readable.map((s) => ({ versionId: s.versionId, mime: s.mime, name: s.name })));
  return list.map((template) => {
    const json: TemplateResponse = {
      id: template.id,
      guid: template.guid,
      name: template.name,
      description: template.description,
      date: iso(template.updatedAt)!,
      parent_id: template.folderId ?? 0,
      size: template.size,
      can_edit: canManageTemplate(user, template.folderId === null ? null : (rights.get(template.folderId) ?? null)),
    };
    const fileType = fileTypeOf(template.mime, template.name);
    if (fileType) json.file_type = fileType;
    const thumb = template.sourceVersionId === null ? undefined : thumbs.get(template.sourceVersionId);
    if (thumb?.thumb_token) json.thumb_token = thumb.thumb_token;
    return json;
  });
}
