import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db";
import { jobs, linkAccessTokens, linkVisitors, versionPreviews } from "@/db/schema";
import { hashToken, newToken } from "@/lib/server/auth/tokens";
import { createShare } from "../api/shares/share-helpers";
import { createFileScene } from "./file-ops-factories";
import { createFolder, uploadText } from "./files";
import { unique } from "./factories";

/**
 * A link share of two documents (`doc`: 3 pages by its rendition, `notes`: 2) and a document of the
 * owner outside it (`outside`), for the engagement tests.
 */
export async function createEngagementScene() {
  const scene = await createFileScene({ name: `${unique("report_")}.txt`, text: "three pages" });
  const second = await uploadText(scene.owner, scene.folder.id, `${unique("notes_")}.txt`, "notes");
  const elsewhere = await createFolder(scene.owner, scene.owner.privateRootId!, unique("private_"));
  const outside = await uploadText(scene.owner, elsewhere.id, `${unique("secret_")}.txt`, "secret");
  // The page counts are set here, not by a preview job (another file's worker could run ours).
  const db = await getDb();
  const ids = [scene.version.id, second.version.id, outside.version.id];
  await db.delete(jobs).where(and(inArray(jobs.dedupeKey, ids.map((id) => `previews.make:${id}`)), eq(jobs.status, "pending")));
  await db.update(versionPreviews).set({ state: "available", pageCount: 3 }).where(eq(versionPreviews.versionId, scene.version.id));
  await db.update(versionPreviews).set({ state: "available", pageCount: 2 }).where(eq(versionPreviews.versionId, second.version.id));
  const share = await createShare(scene.owner, {
    roots: [
      { id: scene.version.id, entity_type: 1 },
      { id: second.version.id, entity_type: 1 },
    ],
  });
  return { ...scene, doc: scene.version, notes: second.version, outside: outside.version, share };
}

/**
 * A visitor of a link with a live access token naming them, written as `POST /share/key/(key)/visitor`
 * does (link_visitors + link_access_tokens.visitor_id), so these tests do not depend on the gate.
 */
export async function createVisitor(shareId: number, options: { email?: string | null; agreementAt?: Date; expired?: boolean } = {}) {
  const db = await getDb();
  const [visitor] = await db
    .insert(linkVisitors)
    .values({ shareId, email: options.email === undefined ? `${unique("v")}@example.com` : options.email, agreementAt: options.agreementAt ?? null, ip: "10.9.0.1" })
    .returning();
  const token = newToken();
  await db.insert(linkAccessTokens).values({
    tokenHash: hashToken(token),
    linkType: "share",
    linkId: shareId,
    visitorId: visitor.id,
    expiresAt: new Date(Date.now() + (options.expired ? -60_000 : 2 * 3600_000)),
  });
  return { visitor, token };
}
