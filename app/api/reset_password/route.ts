import { noContent } from "@/lib/contracts/common";
import { requestPasswordResetBody } from "@/lib/contracts/account";
import { requestPasswordReset } from "@/lib/server/account/request-password-reset";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";

export const runtime = "nodejs";

// POST /api/reset_password: mail a one-use reset link to the account (no token)
export const POST = route({ auth: "none", body: requestPasswordResetBody, response: noContent }, ({ ctx, body, req }) =>
  requestPasswordReset(ctx, body.login_or_email, appUrl(req)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
