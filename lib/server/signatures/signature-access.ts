import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureActors, signatureDocuments, signatureFields, signatureRequests, type SignatureActorRow, type SignatureDocumentRow, type SignatureRequestRow, type User } from "@/db/schema";
import type { SignatureStatus } from "@/lib/contracts/signatures";
import { AppError } from "../errors";

type Caller = Pick<User, "id" | "role">;

const notFound = () => new AppError("not_found", "Signature request not found");

/**
 * A request its initiator (or an administrator) manages; anyone else gets a 404, as for an
 * unknown id. `forUpdate` locks the row so concurrent changes of one request queue up.
 */
export async function getOwnSignatureOrThrow(db: DbOrTx, user: Caller, signatureId: number, options: { forUpdate?: boolean } = {}): Promise<SignatureRequestRow> {
  const query = db.select().from(signatureRequests).where(eq(signatureRequests.id, signatureId)).limit(1);
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row || (row.userId !== user.id && user.role !== 3)) throw notFound();
  return row;
}

/**
 * A request the caller may read: its initiator, an administrator, or a platform user who is one
 * of its actors once it left the draft (api.md: received requests). `viewerActorId` is set for
 * the latter, who sees only their own link.
 */
export async function getReadableSignatureOrThrow(db: DbOrTx, user: Caller, signatureId: number): Promise<{ request: SignatureRequestRow; viewerActorId: number | null }> {
  const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, signatureId)).limit(1);
  if (!row) throw notFound();
  if (row.userId === user.id || user.role === 3) return { request: row, viewerActorId: null };
  if (row.status === "draft") throw notFound();
  const [actor] = await db
    .select({ id: signatureActors.id })
    .from(signatureActors)
    .where(and(eq(signatureActors.signatureId, row.id), eq(signatureActors.userId, user.id)))
    .limit(1);
  if (!actor) throw notFound();
  return { request: row, viewerActorId: actor.id };
}

/** api.md's state machine: anything but the allowed states is a 409 `signature_state` naming the current one. */
export function assertStatus(request: Pick<SignatureRequestRow, "status">, allowed: SignatureStatus[], action: string): void {
  if (!allowed.includes(request.status as SignatureStatus)) {
    throw new AppError("signature_state", `This signature request is ${request.status}: cannot ${action}`, { status: request.status, allowed });
  }
}

/** Changes to documents, actors and fields: drafts only, never a template in use elsewhere. */
export async function getEditableDraftOrThrow(db: DbOrTx, user: Caller, signatureId: number, action: string): Promise<SignatureRequestRow> {
  const request = await getOwnSignatureOrThrow(db, user, signatureId, { forUpdate: true });
  assertStatus(request, ["draft"], action);
  return request;
}

export async function getActorOfOrThrow(db: DbOrTx, signatureId: number, actorId: number): Promise<SignatureActorRow> {
  const [actor] = await db
    .select()
    .from(signatureActors)
    .where(and(eq(signatureActors.id, actorId), eq(signatureActors.signatureId, signatureId)))
    .limit(1);
  if (!actor) throw new AppError("not_found", "Actor not found");
  return actor;
}

export async function getDocumentOfOrThrow(db: DbOrTx, signatureId: number, documentId: number): Promise<SignatureDocumentRow> {
  const [doc] = await db
    .select()
    .from(signatureDocuments)
    .where(and(eq(signatureDocuments.id, documentId), eq(signatureDocuments.signatureId, signatureId)))
    .limit(1);
  if (!doc) throw new AppError("not_found", "Document not found");
  return doc;
}

export async function getFieldOfOrThrow(db: DbOrTx, documentId: number, fieldId: number) {
  const [field] = await db
    .select()
    .from(signatureFields)
    .where(and(eq(signatureFields.id, fieldId), eq(signatureFields.documentId, documentId)))
    .limit(1);
  if (!field) throw new AppError("not_found", "Field not found");
  return field;
}

export const touch = (db: DbOrTx, signatureId: number) => db.update(signatureRequests).set({ updatedAt: new Date() }).where(eq(signatureRequests.id, signatureId));

/** Signers and approvers are awaited; followers only watch. */
export const isAwaitedType = (type: string) => type === "signer" || type === "approver";
export const isWaitingStatus = (status: string) => status === "notified" || status === "opened";
