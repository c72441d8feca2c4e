import { z } from "zod";
import { id, isoDate } from "@/lib/contracts/common";
import { linkKey } from "./links";

/**
 * Document engagement on link shares (issue 30): api.md, "Document engagement on link shares".
 * One file for the gate's options, the visitor's identity, visits and page times, and the
 * owner's analytics, shared by the routes, the services and the screens.
 */

const noControl = (s: string) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(s);
const plainText = (max: number) => z.string().max(max).refine(noControl, "Control and bidirectional override characters are not allowed");

/** An address as a visitor types it: trimmed, lower-cased, one @, no spaces. */
export const visitorEmail = plainText(254)
  .trim()
  .toLowerCase()
  .pipe(z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "Expected an email address"));

/** An allow or deny entry: an address or `@domain` (case-insensitive, stored lower-cased). */
export const gateEntry = plainText(254)
  .trim()
  .toLowerCase()
  .pipe(z.string().regex(/^([^\s@]+@[^\s@]+\.[^\s@]+|@[^\s@]+\.[^\s@]+)$/, "Expected an email address or @domain"));

const flag01 = z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => v === 1 || v === true);

/** The gate options a link's owner sets on `POST /share` and `PUT /share/(id)` (every field optional). */
export const shareGateFields = {
  ask_email: flag01.optional(),
  verify_email: flag01.optional(),
  allow: z.array(gateEntry).max(500).optional(),
  deny: z.array(gateEntry).max(500).optional(),
  agreement: plainText(20_000).trim().nullable().optional(),
  watermark: flag01.optional(),
  notify_view: flag01.optional(),
};

/** The gate as its owner reads it on the Share (0/1 flags, as the contract writes flags). */
export const shareGateJson = z.object({
  ask_email: z.union([z.literal(0), z.literal(1)]),
  verify_email: z.union([z.literal(0), z.literal(1)]),
  allow: z.array(z.string()),
  deny: z.array(z.string()),
  agreement: z.string().nullable(),
  watermark: z.union([z.literal(0), z.literal(1)]),
  notify_view: z.union([z.literal(0), z.literal(1)]),
});
export type ShareGateJson = z.infer<typeof shareGateJson>;

/**
 * What `GET /share/key/(key)` adds for a visitor: what the gate asks (never the allow and deny
 * lists), and who the access token sent stands for, when it is a visitor's.
 */
export const publicGateJson = z.object({
  ask_email: z.boolean(),
  verify_email: z.boolean(),
  agreement: z.string().nullable(),
  watermark: z.boolean(),
  /** The visitor the access token sent stands for; null before the gate is passed. */
  visitor: z.object({ email: z.string().nullable() }).nullable(),
});
export type PublicGateJson = z.infer<typeof publicGateJson>;

/** `POST /share/key/(key)/visitor`. */
export const visitorBody = z.object({
  email: visitorEmail.optional(),
  code: z.string().trim().regex(/^\d{6}$/, "Expected the 6-digit code").optional(),
  agreement_accepted: flag01.optional(),
});
export type VisitorInput = z.infer<typeof visitorBody>;

export const visitParams = z.object({ key: linkKey, visitId: id });

/** `POST /share/key/(key)/visits`. */
export const visitBody = z.object({ file_id: id });

/** At most this many entries in one batch, and this much time in one entry (api.md). */
export const MAX_PAGE_ENTRIES = 200;
export const MAX_ENTRY_MS = 3_600_000;

/** `POST /share/key/(key)/visits/(visitId)/pages`: visible time only; repeated pages add up. */
export const pagesBody = z.object({
  pages: z
    .array(z.object({ page: z.number().int().min(1).max(100_000), ms: z.number().int().min(0).max(MAX_ENTRY_MS) }))
    .min(1)
    .max(MAX_PAGE_ENTRIES),
});
export type PagesInput = z.infer<typeof pagesBody>;

const daily = z.object({ date: z.string(), visits: z.number().int(), visitors: z.number().int() });

/** `GET /share/(id)/analytics`. */
export const shareAnalyticsResponse = z.object({
  visits: z.number().int(),
  visitors: z.number().int(),
  downloads: z.number().int(),
  total_ms: z.number(),
  pages: z.array(z.object({ file_id: z.number().int(), page: z.number().int(), views: z.number().int(), ms_total: z.number(), ms_median: z.number() })),
  daily: z.array(daily),
  visitors_list: z.array(
    z.object({
      /** Beyond api.md: the visitor's id, for the timeline of their visits. */
      visitor_id: z.number().int(),
      email: z.string().nullable(),
      visits: z.number().int(),
      first_at: isoDate,
      last_at: isoDate,
      ms: z.number(),
      pages_seen: z.number().int(),
      /** Pages seen / pages of the documents, 0..1. */
      completion: z.number().min(0).max(1),
      downloads: z.number().int(),
      agreement_at: isoDate.nullable(),
    }),
  ),
});
export type ShareAnalyticsJson = z.infer<typeof shareAnalyticsResponse>;

/** `GET /share/(id)/analytics/visitors/(visitorId)`: a visitor's visits, each a timeline of its pages (beyond api.md). */
export const visitorTimelineResponse = z.object({
  visitor_id: z.number().int(),
  email: z.string().nullable(),
  visits: z.array(
    z.object({
      visit_id: z.number().int(),
      file_id: z.number().int(),
      file_name: z.string(),
      started_at: isoDate,
      last_at: isoDate,
      ms: z.number(),
      events: z.array(z.object({ page: z.number().int(), ms: z.number(), at: isoDate })),
    }),
  ),
});
export type VisitorTimelineJson = z.infer<typeof visitorTimelineResponse>;

/** `GET /shares/analytics`: every link of the caller with its engagement (beyond api.md). */
export const linksAnalyticsResponse = z.object({
  links: z.array(
    z.object({
      share_id: z.number().int(),
      name: z.string().nullable(),
      key: z.string(),
      visits: z.number().int(),
      visitors: z.number().int(),
      total_ms: z.number(),
      last_visit_at: isoDate.nullable(),
    }),
  ),
  daily: z.array(daily),
});
export type LinksAnalyticsJson = z.infer<typeof linksAnalyticsResponse>;

/**
 * The page-by-page viewer's images (beyond api.md): `GET /share/key/(key)/file/(fileId)/pages`
 * → `SharePagesJson`, and `GET /share/key/(key)/file/(fileId)/page/(page)` → the page as an image
 * rendered by the server (never the original bytes), watermarked when the gate says so.
 * `fileId` is the contract's File id as the share's content lists it (`ShareContent.id`).
 */
export const sharePagesParams = z.object({ key: linkKey, fileId: id });
export const sharePageParams = z.object({ key: linkKey, fileId: id, page: id });
/** `?w=`: the page image's longer side, one of a few sizes (phones ask for the smaller ones); 1600 by default. */
export const sharePageQuery = z.object({
  w: z.enum(["800", "1200", "1600"]).default("1600").transform((w) => Number(w) as 800 | 1200 | 1600),
});
export const sharePagesResponse = z.object({
  file_id: z.number().int(),
  name: z.string(),
  /** pdf and office: pages of the document (its PDF rendition); image: 1. */
  kind: z.enum(["pdf", "office", "image"]),
  pages: z.number().int(),
  /** False while an office document's PDF rendition is still being made (ask again). */
  ready: z.boolean(),
});
export type SharePagesJson = z.infer<typeof sharePagesResponse>;

/** `POST /share/key/(key)/visits` → 201 `{visit_id}`. */
export const visitResponse = z.object({ visit_id: z.number().int() });

/** `POST /share/key/(key)/visitor`: 200 with the access token, or 202 when a code was mailed to the visitor. */
export const visitorResponse = { 200: z.object({ access_token: z.string() }), 202: z.object({ code_sent: z.literal(true) }) };
