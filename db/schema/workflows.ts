import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { fileVersions, files } from "./files";
import { users } from "./users";

/**
 * A workflow instance (the contract's Workflow instance): flux 1 validation of one document,
 * 2 scanned handwritten signature, 3 and 5 electronic signature (through a signature request of
 * ours, `signature_id`), 4 validation of several documents. `state` is the short id of the
 * api.md state (`waiting_validation`, `validated`, `refused`, `waiting_signature`, `signed`,
 * `cancelled`); `closed_at` is set once it can no longer move.
 */
export const workflowInstances = pgTable(
  "workflow_instances",
  {
    id: serial("id").primaryKey(),
    flux: smallint("flux").notNull(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    state: text("state").notNull(),
    /** The creation's `properties`, as validated (objects, validation, signatures, signature_fields, send_copy, comment). */
    properties: jsonb("properties").notNull(),
    comment: text("comment"),
    sendCopy: boolean("send_copy").notNull().default(false),
    /** Flux 3 and 5: the signature request the instance follows (no foreign key: cancelled requests stay). */
    signatureId: integer("signature_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (t) => [
    index("workflow_instances_owner_id_idx").on(t.ownerId, t.id),
    index("workflow_instances_signature_id_idx").on(t.signatureId),
    // The dashboard's validations per day: closures by date range (issue 32).
    index("workflow_instances_closed_at_idx").on(t.closedAt).where(sql`${t.closedAt} IS NOT NULL`),
  ],
);

/** The files an instance holds, in the order given; `version_id` is the contract's File id sent. */
export const workflowObjects = pgTable(
  "workflow_objects",
  {
    id: serial("id").primaryKey(),
    instanceId: integer("instance_id")
      .notNull()
      .references(() => workflowInstances.id, { onDelete: "cascade" }),
    fileId: integer("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    versionId: integer("version_id")
      .notNull()
      .references(() => fileVersions.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** Flux 2: the scanned signed document stored beside the original (a files.id). */
    signedFileId: integer("signed_file_id").references(() => files.id, { onDelete: "set null" }),
  },
  (t) => [index("workflow_objects_instance_id_idx").on(t.instanceId), index("workflow_objects_file_id_idx").on(t.fileId, t.instanceId)],
);

/**
 * A validator (`interne`: a user of the platform, `externe`: an address) or, for flux 2, a
 * signer. Each has a mailed link `BASE_URL/workflow/<id>.<secret>`; only the SHA-256 of the
 * secret (with the link's purpose) is kept.
 */
export const workflowParticipants = pgTable(
  "workflow_participants",
  {
    id: serial("id").primaryKey(),
    instanceId: integer("instance_id")
      .notNull()
      .references(() => workflowInstances.id, { onDelete: "cascade" }),
    /** interne, externe, signer */
    role: text("role").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    name: text("name"),
    tokenHash: text("token_hash").notNull(),
    position: integer("position").notNull(),
    /** validated, refused, signed; null while awaited */
    decision: text("decision"),
    comment: text("comment"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    openedAt: timestamp("opened_at", { withTimezone: true }),
  },
  (t) => [index("workflow_participants_instance_id_idx").on(t.instanceId), index("workflow_participants_user_id_idx").on(t.userId)],
);

/** What happened to an instance, with the address and user agent of whoever did it. */
export const workflowEvents = pgTable(
  "workflow_events",
  {
    id: serial("id").primaryKey(),
    instanceId: integer("instance_id")
      .notNull()
      .references(() => workflowInstances.id, { onDelete: "cascade" }),
    participantId: integer("participant_id"),
    userId: integer("user_id"),
    /** created, opened, validated, refused, signed, uploaded, cancelled, closed */
    action: text("action").notNull(),
    comment: text("comment"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    date: timestamp("date", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("workflow_events_instance_id_idx").on(t.instanceId, t.id)],
);

export type WorkflowInstanceRow = typeof workflowInstances.$inferSelect;
export type WorkflowObjectRow = typeof workflowObjects.$inferSelect;
export type WorkflowParticipantRow = typeof workflowParticipants.$inferSelect;
