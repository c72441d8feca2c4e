import "server-only";
import { z } from "zod";
import type { DbOrTx } from "@/db";
import type { ShareRow, UlinkRow, User } from "@/db/schema";
import { linkKey } from "@/lib/contracts/links";
import { AppError } from "../errors";
import { findVisitRecipient } from "../share-emails/visit-recipient";
import { getPublicShareOrThrow, protectionOf } from "../shares/load-share";
import { openUlinkOrThrow, ulinkProtection } from "../ulinks/ulink-access";
import { needsVisitor } from "../engagement/gate/share-gate";
import { findLinkAccess } from "./link-access";
import { isProtected, type ProtectedLink } from "./link-types";

/** The public links a visitor reaches by key: a link share (its legacy /sharelink form included) or a drop link. */
export type LinkKind = "share" | "ulink";

/** What route({ auth: "link" }) resolves from the path's `key`. */
export type LinkSpec<K extends LinkKind = LinkKind> = {
  kind: K;
  /**
   * The link's own pages (its key view, passcheck, sms) answer while a protected link is still
   * locked, `unlocked` saying which; every other operation is a 401 until an access token unlocks it.
   */
  allowLocked?: boolean;
  /**
   * A share whose gate asks for an email or an agreement answers its other operations only to an
   * access token of one of its visitors (401 before); `POST …/visitor` itself answers before
   * (api.md, "Document engagement on link shares"). `allowLocked` implies it.
   */
  beforeVisitor?: boolean;
};

type Unlocking = {
  /** Unprotected, or unlocked by a live access token of this very link. */
  unlocked: boolean;
  /** The access token the visitor sent (already checked when `unlocked`), for redirects that pass it on. */
  accessToken: string | null;
};

/**
 * A link share's visitor. A visit through an email share's personal address (`r`) names its
 * recipient, for the owner's statistics; null for a key of another share, or none.
 */
export type ShareVisit = Unlocking & {
  kind: "share";
  share: ShareRow;
  recipientId: number | null;
  /** The visitor (link_visitors) the access token sent was handed to; null for none, or a passcheck token. */
  visitorId: number | null;
};
/** A drop link's visitor: the link ready to receive, its owner (deposits are committed as them) and folder. */
export type UlinkVisit = Unlocking & { kind: "ulink"; link: UlinkRow; owner: User; folderId: number };
export type LinkVisit = ShareVisit | UlinkVisit;
export type VisitOf<K extends LinkKind> = Extract<LinkVisit, { kind: K }>;

const keyParam = z.object({ key: linkKey });
const noNul = (s: string) => !s.includes("\u0000");

/** The visitor's credentials as the query may carry them (api.md: `access_token`; `r` from an email share's mail). */
const visitorQuery = z.object({
  access_token: z.string().max(1000).refine(noNul, "NUL characters are not allowed").optional(),
  r: z.string().refine(noNul, "NUL characters are not allowed").optional(),
});

/** The access token a visitor presents: `Authorization: Bearer` first, else the `access_token` parameter (api.md). */
export function readVisitorCredentials(req: Request): { accessToken: string | null; recipientKey: string | null } {
  const query = visitorQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
  const bearer = req.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const accessToken = bearer ?? (query.access_token || null);
  // A recipient key longer than any we issue names no recipient: ignored, as a visit without one.
  const recipientKey = query.r && query.r.length <= 200 ? query.r : null;
  return { accessToken, recipientKey };
}

/**
 * The one way a link's visitor is authenticated, under route() (auth "link"), the mixer's
 * thumbnails and the Node server's zip: the key names a usable link (404 `link_not_found`, 410
 * `link_expired`/`link_exhausted` otherwise), and a protected link (password, SMS code) needs a
 * live access token of that very link (401), unless `allowLocked`.
 */
export async function resolveLinkVisitor<K extends LinkKind>(db: DbOrTx, req: Request, rawKey: unknown, spec: LinkSpec<K> | undefined): Promise<VisitOf<K>> {
  if (!spec) throw new Error('route({ auth: "link" }) needs link: { kind }');
  const { key } = keyParam.parse({ key: rawKey });
  const { accessToken, recipientKey } = readVisitorCredentials(req);
  if (spec.kind === "share") {
    const share = await getPublicShareOrThrow(db, key);
    const access = await findLinkAccess(db, "share", share.id, accessToken);
    const unlocked = assertUnlocked(protectionOf(share), access !== null, spec);
    const visitorId = access?.visitorId ?? null;
    if (needsVisitor(share.gate) && visitorId === null && !spec.allowLocked && !spec.beforeVisitor) {
      throw new AppError("unauthorized", "This link asks who you are first: POST /share/key/(key)/visitor, then send the access_token it returns");
    }
    // Looked up only for an unlocked visit: a locked one records nothing.
    const recipientId = unlocked && recipientKey ? await findVisitRecipient(db, share.id, recipientKey) : null;
    const visit: ShareVisit = { kind: "share", share, recipientId, visitorId, unlocked, accessToken };
    return visit as VisitOf<K>;
  }
  const { link, owner, folderId } = await openUlinkOrThrow(db, key);
  const protection = ulinkProtection(link);
  const unlocked = assertUnlocked(protection, isProtected(protection) && (await findLinkAccess(db, "ulink", link.id, accessToken)) !== null, spec);
  const visit: UlinkVisit = { kind: "ulink", link, owner, folderId, unlocked, accessToken };
  return visit as VisitOf<K>;
}

/** `hasAccess`: the request carries a live access token of this very link. */
function assertUnlocked(link: ProtectedLink, hasAccess: boolean, spec: LinkSpec): boolean {
  const unlocked = !isProtected(link) || hasAccess;
  if (!unlocked && !spec.allowLocked) {
    throw new AppError("unauthorized", "This link is protected: send the access_token that passcheck returns");
  }
  return unlocked;
}
