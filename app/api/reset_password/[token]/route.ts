import { noContent } from "@/lib/contracts/common";
import { resetPasswordBody, resetTokenParams } from "@/lib/contracts/account";
import { resetPassword } from "@/lib/server/account/reset-password";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/reset_password/(token): set the new password with a mailed link (no token)
export const POST = route({ auth: "none", params: resetTokenParams, body: resetPasswordBody, response: noContent }, ({ ctx, params, body }) =>
  resetPassword(ctx, params.token, body.password),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
