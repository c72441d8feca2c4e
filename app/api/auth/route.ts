import { z } from "zod";
import { connect } from "@/lib/server/auth/connect";
import { disconnect } from "@/lib/server/auth/disconnect";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// `code`: a TOTP code beside the password, for accounts with an authenticator app (api.md, second factors).
const credentials = z.object({ user: z.string().min(1).max(255), password: z.string().min(1).max(1024), code: z.string().max(64).optional() });

// POST /api/auth: connect, returns {token}
export const POST = route({ auth: "none", body: credentials }, async ({ ctx, body }) => {
  const { token } = await connect(ctx, body);
  return { token };
});

// DELETE /api/auth: disconnect (revokes this token)
export const DELETE = route({}, ({ ctx }) => disconnect(ctx));

export const { GET, PUT, PATCH } = otherMethods({ POST, DELETE });
