import { userParams, userQuotaResponse } from "@/lib/contracts/users";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { getUserQuota } from "@/lib/server/quotas/get-user-quota";

export const runtime = "nodejs";

// GET /api/user/(userId)/quota: a user's quota and the bytes they use
export const GET = route({ params: userParams, response: userQuotaResponse }, ({ ctx, params }) => getUserQuota(ctx, params.userId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
