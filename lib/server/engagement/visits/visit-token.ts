import "server-only";
import { and, eq, gt, isNotNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { linkAccessTokens } from "@/db/schema";
import { hashToken } from "../../auth/tokens";
import { AppError } from "../../errors";
import type { ShareVisit } from "../../links/resolve-link-visitor";

export type VisitorToken = { visitorId: number; tokenHash: string };

/**
 * The visitor a link's access token stands for (issued by `POST /share/key/(key)/visitor`): a live
 * token of this very share that names a visitor; anything else is a 401, as a visit needs someone.
 */
export async function visitorOfTokenOrThrow(db: DbOrTx, link: Pick<ShareVisit, "share" | "accessToken">): Promise<VisitorToken> {
  const tokenHash = link.accessToken ? hashToken(link.accessToken) : null;
  const [row] = tokenHash
    ? await db
        .select({ visitorId: linkAccessTokens.visitorId })
        .from(linkAccessTokens)
        .where(
          and(
            eq(linkAccessTokens.tokenHash, tokenHash),
            eq(linkAccessTokens.linkType, "share"),
            eq(linkAccessTokens.linkId, link.share.id),
            gt(linkAccessTokens.expiresAt, new Date()),
            isNotNull(linkAccessTokens.visitorId),
          ),
        )
        .limit(1)
    : [];
  if (!row?.visitorId || !tokenHash) throw new AppError("unauthorized", "Open the link as a visitor first: POST /share/key/(key)/visitor");
  return { visitorId: row.visitorId, tokenHash };
}
