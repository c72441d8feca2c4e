import "server-only";
import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileTemplates, folders, type FileTemplate, type Folder, type User } from "@/db/schema";
import { AppError } from "../errors";
import { idArray } from "../folders/id-array";
import { resolveFolderRights } from "../rights/resolve-rights";
import type { Rights } from "../rights/rights";

type Who = Pick<User, "id" | "role">;

/** The templates offered in a folder (api.md): platform-wide ones, and those of the folder and of each of its ancestors. */
export const offeredIn = (folder: Pick<Folder, "id" | "path">): SQL =>
  or(isNull(fileTemplates.folderId), sql`${fileTemplates.folderId} = ANY(${idArray([...folder.path, folder.id])})`)!;

export const templateNotFound = () => new AppError("template_not_found", "File template not found");

/**
 * A template the caller sees: platform-wide ones for every user, a folder's for those who may
 * browse that folder. Others get the same 404 as an unknown id. `rights` are the caller's on the
 * template's folder (null for a platform-wide template).
 */
export async function getVisibleTemplateOrThrow(db: DbOrTx, user: Who, templateId: number): Promise<{ template: FileTemplate; rights: Rights | null }> {
  // A template of a folder in the trash is gone with it (and comes back with it).
  const [template] = await db
    .select({ template: fileTemplates })
    .from(fileTemplates)
    .leftJoin(folders, eq(folders.id, fileTemplates.folderId))
    .where(and(eq(fileTemplates.id, templateId), or(isNull(fileTemplates.folderId), isNull(folders.deletedAt))))
    .limit(1)
    .then((found) => found.map((f) => f.template));
  if (!template) throw templateNotFound();
  if (template.folderId === null) return { template, rights: null };
  const rights = await resolveFolderRights(db, user, template.folderId);
  if (!rights.browse) throw templateNotFound();
  return { template, rights };
}

/** Who may change or delete a template: administrators; for a folder's template, also users with the write right there. */
export const canManageTemplate = (user: Who, rights: Rights | null) => user.role === 3 || Boolean(rights?.write);

export async function getManagedTemplateOrThrow(db: DbOrTx, user: Who, templateId: number): Promise<FileTemplate> {
  const { template, rights } = await getVisibleTemplateOrThrow(db, user, templateId);
  if (!canManageTemplate(user, rights)) {
    throw new AppError("forbidden", template.folderId === null ? "Only administrators change platform-wide templates" : "Changing this template needs the write right in its folder");
  }
  return template;
}
