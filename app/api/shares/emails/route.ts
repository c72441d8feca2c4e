import { pagingQuery, shareEmailListResponse } from "@/lib/contracts/share-emails";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { listShareEmails } from "@/lib/server/share-emails/list-share-emails";

export const runtime = "nodejs";

// GET /api/shares/emails: my email shares (envelope)
export const GET = route({ query: pagingQuery, response: shareEmailListResponse }, ({ ctx, query, req }) => listShareEmails(ctx, { offset: query.offset_start, limit: query.nb_objects }, appUrl(req)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
