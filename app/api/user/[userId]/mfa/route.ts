import { noContent } from "@/lib/contracts/common";
import { userParams } from "@/lib/contracts/users";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { resetUserMfa } from "@/lib/server/mfa/reset-user-mfa";

export const runtime = "nodejs";

// DELETE /api/user/(userId)/mfa: an administrator removes every second factor of an account (logged)
export const DELETE = route({ auth: "admin", params: userParams, response: noContent }, ({ ctx, params }) => resetUserMfa(ctx, params.userId));

export const { GET, POST, PUT, PATCH } = otherMethods({ DELETE });
