import "server-only";
import { asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import {
  signatureActivities,
  signatureActors,
  signatureDocuments,
  signatureFields,
  signatureRequests,
  users,
  type SignatureActivityRow,
  type SignatureActorRow,
  type SignatureDocumentRow,
  type SignatureFieldRow,
  type SignatureRequestRow,
} from "@/db/schema";
import type {
  ActorStatus,
  ActorType,
  FieldType,
  SignatureActivityCode,
  SignatureActivityResponse,
  SignatureActorResponse,
  SignatureDocumentResponse,
  SignatureFieldResponse,
  SignatureLevel,
  SignatureMode,
  SignatureResponse,
  SignatureStatus,
} from "@/lib/contracts/signatures";
import { displayName } from "../audit/write-log";
import { actorName } from "./signature-mails";
import { iso } from "../present/envelope";
import { makeToken, signingUrl } from "./signing-token";

/**
 * Who is looking: the initiator or an administrator (`all`: every actor's link) or one actor
 * (only their own link; a received request). `base` is the address links are built on.
 */
export type Viewer = { links: "all" } | { links: "own"; actorId: number } | { links: "none" };

export type PresentOptions = { base: string; viewer: Viewer; full?: boolean };

const bit = (b: boolean): 0 | 1 => (b ? 1 : 0);

export function presentField(f: SignatureFieldRow): SignatureFieldResponse {
  const base: SignatureFieldResponse = {
    id: f.id,
    document_id: f.documentId,
    type: f.type as FieldType,
    page: f.page,
    x: f.x,
    y: f.y,
    width: f.width,
    height: f.height,
    signer_id: f.actorId,
    reason: f.reason,
    display: [{ layout: f.type }],
    optional: f.optional,
    read_only: f.readOnly,
    value: f.value === null ? null : f.type === "checkbox" ? f.value === "true" : f.type === "signature" ? true : f.value,
  };
  if (f.type === "checkbox") Object.assign(base, { size: f.size, default_value: f.defaultValue });
  if (["text", "number", "radio", "dropdown"].includes(f.type)) Object.assign(base, { question: f.question, default_value: f.defaultValue, max_length: f.maxLength });
  if (f.options) base.options = f.options;
  if (f.fontSize !== null) base.font_size = f.fontSize;
  return base;
}

export function presentDocument(d: SignatureDocumentRow, fields: SignatureFieldRow[]): SignatureDocumentResponse {
  return {
    id: d.id,
    esign_id: null,
    file_id: d.fileId,
    file_signed_id: d.fileSignedId,
    name: d.name,
    initial_position: d.initialPosition as SignatureDocumentResponse["initial_position"],
    signature_id: d.signatureId,
    pages: d.pages,
    fields: fields.filter((f) => f.documentId === d.id).map(presentField),
    sha256_before: d.sha256Before,
    sha256_after: d.sha256After,
  };
}

export async function presentActor(a: SignatureActorRow, options: { base: string; withLink: boolean }): Promise<SignatureActorResponse> {
  const link = options.withLink && a.tokenNonce && (a.status === "notified" || a.status === "opened") ? signingUrl(options.base, await makeToken(a.id, a.tokenNonce, "sign")) : null;
  return {
    id: a.id,
    esign_id: null,
    user_id: a.userId,
    type: a.type as ActorType,
    position: a.position,
    phone: a.phone,
    first_name: a.firstName,
    last_name: a.lastName,
    email: a.email,
    locale: a.locale,
    signature_level: a.signatureLevel as SignatureLevel | null,
    status: a.status as ActorStatus,
    link,
    refuse_reason: a.refuseReason,
    refuse_at: iso(a.refuseAt),
    signed_at: iso(a.doneAt),
    signature_id: a.signatureId,
  };
}

export async function presentActivity(row: SignatureActivityRow, actors: Map<number, SignatureActorRow>, base: string, userNames: Map<number, string>): Promise<SignatureActivityResponse> {
  const toActor = row.toActorId === null ? undefined : actors.get(row.toActorId);
  const fromActor = row.fromActorId === null ? undefined : actors.get(row.fromActorId);
  return {
    id: row.id,
    action: row.action as SignatureActivityCode,
    from: row.fromActorId,
    to: row.toActorId,
    to_user: toActor ? await presentActor(toActor, { base, withLink: false }) : null,
    // An actor who acted is named as the request knows them; else the platform user who acted.
    by: fromActor ? actorName(fromActor) : row.userId !== null ? (userNames.get(row.userId) ?? null) : null,
    date: row.date.toISOString(),
    ip: row.ip,
    user_agent: row.userAgent,
    details: row.details ?? null,
    signature_id: row.signatureId,
  };
}

const canSeeLink = (viewer: Viewer, actorId: number) => viewer.links === "all" || (viewer.links === "own" && viewer.actorId === actorId);

/** The contract's Signature request for each row, in order, in a bounded number of queries. */
export async function presentSignatures(db: DbOrTx, rows: SignatureRequestRow[], options: PresentOptions): Promise<SignatureResponse[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [docs, actors, owners, children] = await Promise.all([
    db.select().from(signatureDocuments).where(inArray(signatureDocuments.signatureId, ids)).orderBy(asc(signatureDocuments.position), asc(signatureDocuments.id)),
    db.select().from(signatureActors).where(inArray(signatureActors.signatureId, ids)).orderBy(asc(signatureActors.position), asc(signatureActors.id)),
    db.select({ id: users.id, login: users.login, firstname: users.firstname, lastname: users.lastname }).from(users).where(inArray(users.id, [...new Set(rows.map((r) => r.userId))])),
    options.full ? db.select().from(signatureRequests).where(inArray(signatureRequests.parentId, ids)).orderBy(asc(signatureRequests.id)) : Promise.resolve([]),
  ]);
  const fields = docs.length ? await db.select().from(signatureFields).where(inArray(signatureFields.documentId, docs.map((d) => d.id))).orderBy(asc(signatureFields.id)) : [];
  const activities = options.full ? await db.select().from(signatureActivities).where(inArray(signatureActivities.signatureId, ids)).orderBy(asc(signatureActivities.id)) : [];
  const actorById = new Map(actors.map((a) => [a.id, a]));
  const ownerName = new Map(owners.map((o) => [o.id, displayName(o)]));
  const presentedChildren = options.full && children.length ? await presentSignatures(db, children, { ...options, full: false }) : [];

  return Promise.all(
    rows.map(async (r) => {
      const out: SignatureResponse = {
        id: r.id,
        user_id: r.userId,
        owner: ownerName.get(r.userId) ?? "",
        signature_parent_id: r.parentId,
        esign_id: null,
        name: r.name,
        status: r.status as SignatureStatus,
        ordered: bit(r.ordered),
        is_masses: bit(r.isMasses),
        mode: r.mode as SignatureMode,
        level: r.level as SignatureLevel,
        reminder_day: r.reminderDay,
        reminder_settings: r.reminderInterval !== null ? { interval_in_days: r.reminderInterval, max_occurences: r.reminderMax ?? 0 } : null,
        expiration_date: iso(r.expirationDate),
        send_copy: bit(r.sendCopy),
        subject: r.subject,
        message: r.message,
        is_template: bit(r.isTemplate),
        creation_date: r.createdAt.toISOString(),
        modification_date: r.updatedAt.toISOString(),
        completed_at: iso(r.completedAt),
        deleted_at: iso(r.deletedAt),
        documents: docs.filter((d) => d.signatureId === r.id).map((d) => presentDocument(d, fields)),
        actors: await Promise.all(actors.filter((a) => a.signatureId === r.id).map((a) => presentActor(a, { base: options.base, withLink: canSeeLink(options.viewer, a.id) }))),
      };
      if (options.full) {
        const names = await activityUserNames(db, activities);
        out.activities = await Promise.all(activities.filter((x) => x.signatureId === r.id).map((x) => presentActivity(x, actorById, options.base, names)));
        out.children = presentedChildren.filter((c) => c.signature_parent_id === r.id);
      }
      return out;
    }),
  );
}

export async function presentSignature(db: DbOrTx, row: SignatureRequestRow, options: PresentOptions): Promise<SignatureResponse> {
  const [out] = await presentSignatures(db, [row], options);
  return out;
}

/** The freshest row, then presented: after a change in the same transaction. */
export async function reloadAndPresent(db: DbOrTx, signatureId: number, options: PresentOptions): Promise<SignatureResponse> {
  const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, signatureId));
  return presentSignature(db, row, options);
}

/** The names of the platform users who acted in these history lines (one query). */
export async function activityUserNames(db: DbOrTx, rows: Pick<SignatureActivityRow, "userId">[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.map((r) => r.userId).filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const found = await db.select({ id: users.id, login: users.login, firstname: users.firstname, lastname: users.lastname }).from(users).where(inArray(users.id, ids));
  return new Map(found.map((u) => [u.id, displayName(u)]));
}
