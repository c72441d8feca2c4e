import { bigint, bigserial, date, index, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { shares } from "./shares";

/**
 * Document engagement on link shares (issue 30; api.md, "Document engagement on link shares").
 * A visitor is who passed a link's gate (an email, or nobody in particular); a visit is one
 * document opened by a visitor; page events are the visible time a visit reports, appended as
 * they come. Old events are folded into the daily tables by the retention job and deleted.
 */
export const linkVisitors = pgTable(
  "link_visitors",
  {
    id: serial("id").primaryKey(),
    shareId: integer("share_id").notNull().references(() => shares.id, { onDelete: "cascade" }),
    /** Lower-cased; null for an anonymous visitor (a link that does not ask for one). */
    email: text("email"),
    /** Whether the email was confirmed by a mailed code. */
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    /** The agreement accepted: when, from which address, and the very text accepted. */
    agreementAt: timestamp("agreement_at", { withTimezone: true }),
    agreementIp: text("agreement_ip"),
    agreementText: text("agreement_text"),
    ip: text("ip"),
    firstAt: timestamp("first_at", { withTimezone: true }).notNull().defaultNow(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("link_visitors_share_idx").on(t.shareId, t.email)],
);

export const linkVisits = pgTable(
  "link_visits",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    shareId: integer("share_id").notNull().references(() => shares.id, { onDelete: "cascade" }),
    visitorId: integer("visitor_id").notNull().references(() => linkVisitors.id, { onDelete: "cascade" }),
    /** The access token that opened it (hashed): only that token reports its pages. */
    tokenHash: text("token_hash").notNull(),
    fileId: integer("file_id").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("link_visits_share_idx").on(t.shareId, t.startedAt), index("link_visits_visitor_idx").on(t.visitorId)],
);

/** Append-only: one row per entry of a batch of `POST …/visits/(id)/pages`. */
export const linkPageEvents = pgTable(
  "link_page_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    shareId: integer("share_id").notNull().references(() => shares.id, { onDelete: "cascade" }),
    visitId: bigint("visit_id", { mode: "number" }).notNull(),
    visitorId: integer("visitor_id").notNull(),
    fileId: integer("file_id").notNull(),
    page: integer("page").notNull(),
    ms: integer("ms").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("link_page_events_share_idx").on(t.shareId, t.at), index("link_page_events_visit_idx").on(t.visitId)],
);

/**
 * The events of a visit added up per page, kept with each batch (an upsert beside the append):
 * the owner's analytics read these (about visits × pages rows) rather than every event, which
 * keeps a link with a million events answering in tens of milliseconds.
 */
export const linkVisitPages = pgTable(
  "link_visit_pages",
  {
    visitId: bigint("visit_id", { mode: "number" }).notNull().references(() => linkVisits.id, { onDelete: "cascade" }),
    shareId: integer("share_id").notNull(),
    visitorId: integer("visitor_id").notNull(),
    fileId: integer("file_id").notNull(),
    page: integer("page").notNull(),
    ms: bigint("ms", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.visitId, t.page] }), index("link_visit_pages_share_idx").on(t.shareId, t.fileId, t.page)],
);

/** Per link and day: what the summary across a user's links reads, and what retention keeps of old events. */
export const linkEngagementDays = pgTable(
  "link_engagement_days",
  {
    shareId: integer("share_id").notNull().references(() => shares.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    visits: integer("visits").notNull().default(0),
    visitors: integer("visitors").notNull().default(0),
    ms: bigint("ms", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.day] })],
);

/** Per link, document page and day: the page events folded by retention (views and time, no median). */
export const linkPageDays = pgTable(
  "link_page_days",
  {
    shareId: integer("share_id").notNull().references(() => shares.id, { onDelete: "cascade" }),
    fileId: integer("file_id").notNull(),
    page: integer("page").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    views: integer("views").notNull().default(0),
    ms: bigint("ms", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.fileId, t.page, t.day] })],
);

