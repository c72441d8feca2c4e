import { pagingQuery, ulinkEmailListResponse } from "@/lib/contracts/ulinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { listUlinkEmails } from "@/lib/server/ulinks/list-ulink-emails";

export const runtime = "nodejs";

// GET /api/ulinks/emails: my drop links by email (envelope)
export const GET = route({ query: pagingQuery, response: ulinkEmailListResponse }, ({ ctx, query, req }) => listUlinkEmails(ctx, { offset: query.offset_start, limit: query.nb_objects }, appUrl(req)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
