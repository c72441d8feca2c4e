import { noContent } from "@/lib/contracts/common";
import { pagesBody, visitParams } from "@/lib/contracts/engagement";
import { recordPages } from "@/lib/server/engagement/visits/record-pages";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

/** 200 entries of {page, ms} fit in well under this; a larger body is a 413 before it is read. */
const PAGES_BODY_LIMIT = 64 * 1024;

// POST /api/share/key/(key)/visits/(visitId)/pages (the access token that opened the visit, header or ?access_token= for sendBeacon): visible time per page → 204
export const POST = route({ auth: "link", link: { kind: "share" }, params: visitParams, body: pagesBody, bodyLimit: PAGES_BODY_LIMIT, response: noContent }, ({ ctx, params, body }) => recordPages(ctx, params.visitId, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
