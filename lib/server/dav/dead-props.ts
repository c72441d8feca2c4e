import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { davProperties } from "@/db/schema";
import type { AuthedCtx } from "../context";
import type { DavResource } from "./dav-resources";
import { clark, type PropName } from "./dav-xml";

/** The row key of a resource's dead properties; the root has none. */
function ownerOf(resource: DavResource): { fileId: number } | { folderId: number } | null {
  if (resource.kind === "file") return { fileId: resource.file.id };
  if (resource.kind === "folder") return { folderId: resource.folder.id };
  return null;
}

const whereOwner = (owner: { fileId: number } | { folderId: number }) =>
  "fileId" in owner ? eq(davProperties.fileId, owner.fileId) : eq(davProperties.folderId, owner.folderId);

/** The dead properties of a resource, by Clark name, as XML content (PROPPATCH stores them). */
export async function deadPropsOf(ctx: AuthedCtx, resource: DavResource): Promise<Map<string, string>> {
  const owner = ownerOf(resource);
  if (!owner) return new Map();
  const rows = await ctx.db.select().from(davProperties).where(whereOwner(owner));
  return new Map(rows.map((r) => [clark({ ns: r.namespace, name: r.name }), r.value]));
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
