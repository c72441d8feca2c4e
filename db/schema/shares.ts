import { bigint, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { folders } from "./folders";
import { users } from "./users";

/**
 * A link share (the contract's current Link share). flags: 1 download only, 2 preview only,
 * 4 preview and download, 8 preview, download and edit, 16 password, 32 SMS code, 64 download
 * receipt, 128 single download. An expired share stays listed but serves nothing.
 */
/**
 * What a link asks of its visitors before they see anything, and what it does while they read
 * (api.md's gate options, stored as given: emails and `@domain` entries lower-cased).
 */
export type ShareGate = {
  askEmail: boolean;
  verifyEmail: boolean;
  allow: string[];
  deny: string[];
  agreement: string | null;
  watermark: boolean;
  notifyView: boolean;
};

export const shares = pgTable(
  "shares",
  {
    id: serial("id").primaryKey(),
    key: text("key").notNull().unique("shares_key_key"),
    flags: integer("flags").notNull().default(4),
    name: text("name"),
    expirationDate: timestamp("expiration_date", { withTimezone: true }),
    ownerId: integer("owner_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    passwordHash: text("password_hash"),
    phone: text("phone"),
    /** Set when a single-download link has served its download. */
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    /** Options carried for the legacy /sharelink adapter (max_downloads, notify, autoupdate, …). */
    legacy: jsonb("legacy"),
    /** The engagement gate (api.md, "Document engagement on link shares"); null: no gate. */
    gate: jsonb("gate").$type<ShareGate>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("shares_owner_id_idx").on(t.ownerId)],
);

/** What a share exposes: folders (entity_type 0, folders.id) and files (1, files.id). */
export const shareRoots = pgTable(
  "share_roots",
  {
    id: serial("id").primaryKey(),
    shareId: integer("share_id").notNull().references(() => shares.id, { onDelete: "cascade" }),
    entityType: smallint("entity_type").notNull(),
    objectId: integer("object_id").notNull(),
  },
  (t) => [index("share_roots_share_id_idx").on(t.shareId), index("share_roots_object_idx").on(t.entityType, t.objectId)],
);

/** Each visit, preview and download through a link, for the owner's activity view. */
export const shareAccesses = pgTable(
  "share_accesses",
  {
    id: serial("id").primaryKey(),
    shareId: integer("share_id").notNull().references(() => shares.id, { onDelete: "cascade" }),
    /** visit, preview, download, zip */
    kind: text("kind").notNull(),
    fileId: integer("file_id"),
    versionId: integer("version_id"),
    /** A stable, anonymous visitor id (hash of address and user agent), for distinct visitors. */
    visitor: text("visitor").notNull(),
    /** The email-share recipient the visit came through, when any. */
    recipientId: integer("recipient_id"),
    /** The link visitor (link_visitors, who passed the link's gate) it came from, when any. */
    visitorId: integer("visitor_id"),
    ip: text("ip"),
    env: jsonb("env"),
    geo: jsonb("geo"),
    date: timestamp("date", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("share_accesses_share_id_idx").on(t.shareId, t.date)],
);

/** A link share sent by mail (the contract's Email share). */
export const shareEmails = pgTable("share_emails", {
  id: serial("id").primaryKey(),
  shareId: integer("share_id").notNull().references(() => shares.id, { onDelete: "cascade" }),
  ownerId: integer("owner_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  object: text("object").notNull().default(""),
  content: text("content").notNull().default(""),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One recipient of an email share, with a key of their own so their visits can be counted. */
export const shareEmailRecipients = pgTable(
  "share_email_recipients",
  {
    id: serial("id").primaryKey(),
    shareEmailId: integer("share_email_id").notNull().references(() => shareEmails.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    key: text("key").notNull().unique("share_email_recipients_key_key"),
  },
  (t) => [index("share_email_recipients_email_idx").on(t.shareEmailId)],
);

/** A drop link (the contract's Drop link): visitors deposit files into a folder. flags 4 = receipt. */
export const ulinks = pgTable(
  "ulinks",
  {
    id: serial("id").primaryKey(),
    key: text("key").notNull().unique("ulinks_key_key"),
    folderId: integer("folder_id").references(() => folders.id, { onDelete: "set null" }),
    flags: integer("flags").notNull().default(0),
    name: text("name"),
    expirationDate: timestamp("expiration_date", { withTimezone: true }),
    ownerId: integer("owner_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    passwordHash: text("password_hash"),
    phone: text("phone"),
    /** The drop link by email this one was made for (one key per recipient). */
    ulinkEmailId: integer("ulink_email_id"),
    recipientEmail: text("recipient_email"),
    /** Whether a visitor gives a name and email with a deposit: "none", "optional" or "required". */
    depositor: text("depositor", { enum: ["none", "optional", "required"] }).notNull().default("none"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ulinks_owner_id_idx").on(t.ownerId), index("ulinks_folder_id_idx").on(t.folderId)],
);

/** A drop link sent by mail; each recipient gets a drop link (and so a key) of their own. */
export const ulinkEmails = pgTable("ulink_emails", {
  id: serial("id").primaryKey(),
  ownerId: integer("owner_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  folderId: integer("folder_id").references(() => folders.id, { onDelete: "set null" }),
  object: text("object").notNull().default(""),
  content: text("content").notNull().default(""),
  alert: integer("alert").notNull().default(0),
  expirationDate: timestamp("expiration_date", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** What a password or SMS code unlocks: 2 hours for a share, 4 hours for a drop link. Hashed. */
export const linkAccessTokens = pgTable(
  "link_access_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    linkType: text("link_type", { enum: ["share", "ulink"] }).notNull(),
    linkId: integer("link_id").notNull(),
    /** Set for a token that `POST /share/key/(key)/visitor` handed to a visitor who passed the gate. */
    visitorId: integer("visitor_id"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("link_access_tokens_link_idx").on(t.linkType, t.linkId)],
);

/** SMS codes sent for a link; one valid code per link and phone at a time. */
export const linkCodes = pgTable(
  "link_codes",
  {
    id: serial("id").primaryKey(),
    linkType: text("link_type", { enum: ["share", "ulink"] }).notNull(),
    linkId: integer("link_id").notNull(),
    codeHash: text("code_hash").notNull(),
    /** The address an email code was mailed to (a gate's `verify_email`); null for an SMS code. */
    email: text("email"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("link_codes_link_idx").on(t.linkType, t.linkId)],
);

/** Outgoing text messages of the built-in SMS provider, readable by administrators. */
export const smsMessages = pgTable("sms_messages", {
  id: serial("id").primaryKey(),
  to: text("to").notNull(),
  body: text("body").notNull(),
  provider: text("provider").notNull().default("outbox"),
  sentAt: timestamp("sent_at", { withTimezone: true }),
  error: text("error"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Deposits through a drop link, for the owner's receipts and counters. */
export const ulinkDeposits = pgTable(
  "ulink_deposits",
  {
    id: serial("id").primaryKey(),
    ulinkId: integer("ulink_id").notNull().references(() => ulinks.id, { onDelete: "cascade" }),
    fileId: integer("file_id"),
    versionId: integer("version_id"),
    name: text("name").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    ip: text("ip"),
    /** Who the visitor said they are (the link's `depositor` option); null when not asked or not given. */
    depositorName: text("depositor_name"),
    depositorEmail: text("depositor_email"),
    date: timestamp("date", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ulink_deposits_ulink_id_idx").on(t.ulinkId)],
);

export type ShareRow = typeof shares.$inferSelect;
export type UlinkRow = typeof ulinks.$inferSelect;
export const SHARE_FLAG = {
  downloadOnly: 1,
  previewOnly: 2,
  previewAndDownload: 4,
  edit: 8,
  password: 16,
  sms: 32,
  receipt: 64,
  singleDownload: 128,
} as const;
