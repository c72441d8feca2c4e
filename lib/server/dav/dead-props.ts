import "server-only";
import { and, eq, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { davProperties } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { idIn } from "../folders/id-array";
import { idsOf, rowKey, type DavResource } from "./dav-resources";
import { clark, type PropName } from "./dav-xml";

/** The row key of a resource's dead properties; the root has none. */
function ownerOf(resource: DavResource): { fileId: number } | { folderId: number } | null {
  if (resource.kind === "file") return { fileId: resource.file.id };
  if (resource.kind === "folder") return { folderId: resource.folder.id };
  return null;
}

const whereOwner = (owner: { fileId: number } | { folderId: number }) =>
  "fileId" in owner ? eq(davProperties.fileId, owner.fileId) : eq(davProperties.folderId, owner.folderId);

/**
 * The dead properties of resources, by resource key (resourceKey) then Clark name, as XML
 * content (PROPPATCH stores them): one statement whatever the number of resources.
 */
export async function deadPropsOf(ctx: AuthedCtx, resources: DavResource[]): Promise<Map<string, Map<string, string>>> {
  const { fileIds, folderIds } = idsOf(resources);
  const byResource = new Map<string, Map<string, string>>();
  if (fileIds.length === 0 && folderIds.length === 0) return byResource;
  const found = await ctx.db
    .select()
    .from(davProperties)
    .where(or(fileIds.length ? idIn(davProperties.fileId, fileIds) : undefined, folderIds.length ? idIn(davProperties.folderId, folderIds) : undefined))
    .orderBy(davProperties.id);
  for (const row of found) {
    const key = rowKey(row);
    if (!byResource.has(key)) byResource.set(key, new Map());
    byResource.get(key)!.set(clark({ ns: row.namespace, name: row.name }), row.value);
  }
  return byResource;
}

/** Sets (value) or removes (null) dead properties, in order, in the caller's transaction. */
export async function writeDeadProps(db: DbOrTx, resource: DavResource, changes: { name: PropName; value: string | null }[]): Promise<void> {
  const owner = ownerOf(resource);
  if (!owner) return;
  for (const change of changes) {
    const same = and(whereOwner(owner), eq(davProperties.namespace, change.name.ns), eq(davProperties.name, change.name.name));
    if (change.value === null) {
      await db.delete(davProperties).where(same);
      continue;
    }
    const updated = await db.update(davProperties).set({ value: change.value, updatedAt: sql`now()` }).where(same).returning({ id: davProperties.id });
    if (updated.length === 0) await db.insert(davProperties).values({ ...owner, namespace: change.name.ns, name: change.name.name, value: change.value });
  }
}
