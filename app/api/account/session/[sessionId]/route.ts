import { noContent } from "@/lib/contracts/common";
import { sessionParams } from "@/lib/contracts/account-security";
import { endSession } from "@/lib/server/account-security/end-sessions";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// DELETE /api/account/session/(sessionId): that session ends at once → 204
export const DELETE = route({ params: sessionParams, response: noContent }, ({ ctx, params }) => endSession(ctx, params.sessionId));

export const { GET, POST, PUT, PATCH } = otherMethods({ DELETE });
