import { noContent } from "@/lib/contracts/common";
import { sessionListResponse, sessionsQuery } from "@/lib/contracts/account-security";
import { endOtherSessions } from "@/lib/server/account-security/end-sessions";
import { listSessions } from "@/lib/server/account-security/list-sessions";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/account/sessions: every session of the account (web, api, oauth2, app_password), envelope
export const GET = route({ query: sessionsQuery, response: sessionListResponse }, ({ ctx, query }) => listSessions(ctx, { offset: query.offset_start, limit: query.nb_objects }));

// DELETE /api/account/sessions: ends every session but the current one → 204
export const DELETE = route({ response: noContent }, ({ ctx }) => endOtherSessions(ctx));

export const { POST, PUT, PATCH } = otherMethods({ GET, DELETE });
