import { emailListResponse, listEmailsQuery } from "@/lib/contracts/emails";
import { listEmails } from "@/lib/server/emails/list-emails";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/emails: the caller's emails (all for an administrator), paged, optionally of one `type`
export const GET = route({ query: listEmailsQuery, response: emailListResponse }, ({ ctx, query }) => listEmails(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
