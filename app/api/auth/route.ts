import { signInTokenResponse } from "@/lib/contracts/mfa";
import { noContent } from "@/lib/contracts/common";
import { z } from "zod";
import { connectWithAppPassword } from "@/lib/server/account-security/app-password-sign-in";
import { connect } from "@/lib/server/auth/connect";
import { disconnect } from "@/lib/server/auth/disconnect";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// `code`: a TOTP code beside the password, for accounts with an authenticator app (api.md, second factors).
// `app_password`: the password is an app password (api.md, "Account security"): a session with the `files` scopes only.
const bodyFlag = z
  .union([z.boolean(), z.literal(1), z.literal(0), z.enum(["1", "0", "true", "false"])])
  .optional()
  .transform((v) => v === true || v === 1 || v === "1" || v === "true");
const credentials = z.object({ user: z.string().min(1).max(255), password: z.string().min(1).max(1024), code: z.string().max(64).optional(), app_password: bodyFlag });

// POST /api/auth: connect, returns {token} (with `app_password: 1`, an app password's session)
export const POST = route({ auth: "none", body: credentials, response: signInTokenResponse }, async ({ ctx, body }) => {
  const { token } = body.app_password ? await connectWithAppPassword(ctx, body) : await connect(ctx, body);
  return { token };
});

// DELETE /api/auth: disconnect (revokes this token)
export const DELETE = route({ response: noContent }, ({ ctx }) => disconnect(ctx));

export const { GET, PUT, PATCH } = otherMethods({ POST, DELETE });
