import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp, type AnyPgColumn } from "drizzle-orm/pg-core";
import { fileVersions } from "./files";
import { users } from "./users";

/**
 * A signature request (the contract's Signature request). `status` follows api.md's state
 * machine: draft → ongoing → done | refused | expired | cancelled. A cancelled request keeps its
 * rows and carries `deleted_at`. Mass requests have one child per signer (`parent_id`).
 */
export const signatureRequests = pgTable(
  "signature_requests",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    parentId: integer("parent_id").references((): AnyPgColumn => signatureRequests.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: text("status").notNull().default("draft"),
    mode: text("mode").notNull().default("standard"),
    ordered: boolean("ordered").notNull().default(false),
    isMasses: boolean("is_masses").notNull().default(false),
    level: text("level").notNull().default("electronic_signature"),
    reminderDay: integer("reminder_day"),
    reminderInterval: integer("reminder_interval"),
    reminderMax: integer("reminder_max"),
    expirationDate: timestamp("expiration_date", { withTimezone: true }),
    sendCopy: boolean("send_copy").notNull().default(false),
    /** The invitation's own subject and message (issue 31); null: the platform's wording. */
    subject: text("subject"),
    message: text("message"),
    isTemplate: boolean("is_template").notNull().default(false),
    activatedAt: timestamp("activated_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("signature_requests_user_id_idx").on(t.userId, t.id),
    index("signature_requests_parent_id_idx").on(t.parentId),
    // The periodic job looks at ongoing requests only (reminders, expiry).
    index("signature_requests_ongoing_idx").on(t.id).where(sql`${t.status} = 'ongoing'`),
    // The dashboard's signatures per day: completions by date range (issue 32).
    index("signature_requests_done_idx").on(t.completedAt).where(sql`${t.status} = 'done'`),
  ],
);

/**
 * A signer, approver or follower of a request. The signing link is never stored: it is
 * `<id>.<token_nonce>.<HMAC(secret, id.nonce.purpose)>`, recomputed for the initiator, and a new
 * nonce kills the old link. One-time codes (advanced level, or a phone) are stored hashed.
 */
export const signatureActors = pgTable(
  "signature_actors",
  {
    id: serial("id").primaryKey(),
    signatureId: integer("signature_id")
      .notNull()
      .references(() => signatureRequests.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    type: text("type").notNull(),
    position: integer("position").notNull(),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    locale: text("locale"),
    phone: text("phone"),
    signatureLevel: text("signature_level"),
    status: text("status").notNull().default("initiated"),
    tokenNonce: text("token_nonce"),
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
    openedAt: timestamp("opened_at", { withTimezone: true }),
    doneAt: timestamp("done_at", { withTimezone: true }),
    refuseReason: text("refuse_reason"),
    refuseAt: timestamp("refuse_at", { withTimezone: true }),
    /** `drawn` (a PNG data URL in signature_image) or `typed` (signature_text). */
    signatureKind: text("signature_kind"),
    signatureImage: text("signature_image"),
    signatureText: text("signature_text"),
    remindersSent: integer("reminders_sent").notNull().default(0),
    lastRemindedAt: timestamp("last_reminded_at", { withTimezone: true }),
    codeHash: text("code_hash"),
    codeExpiresAt: timestamp("code_expires_at", { withTimezone: true }),
    codeSentAt: timestamp("code_sent_at", { withTimezone: true }),
    codeTries: integer("code_tries").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("signature_actors_signature_id_idx").on(t.signatureId, t.position), index("signature_actors_user_id_idx").on(t.userId)],
);

/**
 * A PDF of a request: the version it was added from (`version_id`, so a later upload does not
 * change what is signed), its page sizes (checked by inspectPdf), and once done the signed file.
 */
export const signatureDocuments = pgTable(
  "signature_documents",
  {
    id: serial("id").primaryKey(),
    signatureId: integer("signature_id")
      .notNull()
      .references(() => signatureRequests.id, { onDelete: "cascade" }),
    fileId: integer("file_id").references(() => fileVersions.id, { onDelete: "set null" }),
    /** The original bytes, held for the request's life even if the file gets new versions. */
    blobId: text("blob_id").notNull(),
    folderId: integer("folder_id").notNull(),
    fileSignedId: integer("file_signed_id").references(() => fileVersions.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    initialPosition: text("initial_position"),
    pages: jsonb("pages").$type<{ width: number; height: number }[]>().notNull(),
    sha256Before: text("sha256_before"),
    sha256After: text("sha256_after"),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("signature_documents_signature_id_idx").on(t.signatureId)],
);

/**
 * A field placed on a page for one signer (PDF points, origin bottom-left), and its value once
 * signed: as stamped (a date signed already formatted in the signer's locale, a number normalised).
 */
export const signatureFields = pgTable(
  "signature_fields",
  {
    id: serial("id").primaryKey(),
    documentId: integer("document_id")
      .notNull()
      .references(() => signatureDocuments.id, { onDelete: "cascade" }),
    actorId: integer("actor_id")
      .notNull()
      .references(() => signatureActors.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    page: integer("page").notNull(),
    x: doublePrecision("x").notNull(),
    y: doublePrecision("y").notNull(),
    width: doublePrecision("width").notNull(),
    height: doublePrecision("height").notNull(),
    optional: boolean("optional").notNull().default(false),
    question: text("question"),
    defaultValue: text("default_value"),
    maxLength: integer("max_length"),
    size: doublePrecision("size"),
    /** The choices of a radio group or dropdown (issue 31), in order. */
    options: jsonb("options").$type<string[]>(),
    /** Shown with its prefilled `default_value`, not editable by the signer (full name, email and date signed always are). */
    readOnly: boolean("read_only").notNull().default(false),
    /** The stamped text's size in points; null: as large as the box allows (up to 14). */
    fontSize: doublePrecision("font_size"),
    reason: text("reason"),
    value: text("value"),
    filledAt: timestamp("filled_at", { withTimezone: true }),
  },
  (t) => [index("signature_fields_document_id_idx").on(t.documentId), index("signature_fields_actor_id_idx").on(t.actorId)],
);

/** The request's history (api.md's activity codes), with the address and user agent of who acted. */
export const signatureActivities = pgTable(
  "signature_activities",
  {
    id: serial("id").primaryKey(),
    signatureId: integer("signature_id")
      .notNull()
      .references(() => signatureRequests.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    fromActorId: integer("from_actor_id"),
    toActorId: integer("to_actor_id"),
    userId: integer("user_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    date: timestamp("date", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("signature_activities_signature_id_idx").on(t.signatureId, t.id)],
);

export type SignatureRequestRow = typeof signatureRequests.$inferSelect;
export type SignatureActorRow = typeof signatureActors.$inferSelect;
export type SignatureDocumentRow = typeof signatureDocuments.$inferSelect;
export type SignatureFieldRow = typeof signatureFields.$inferSelect;
export type SignatureActivityRow = typeof signatureActivities.$inferSelect;
