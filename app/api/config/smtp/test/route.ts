import { smtpTestBody, smtpTestResponse } from "@/lib/contracts/config";
import { testSmtp } from "@/lib/server/config/test-smtp";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/config/smtp/test: send a test mail with these settings, without saving them
export const POST = route({ auth: "admin", body: smtpTestBody, response: smtpTestResponse }, ({ ctx, body }) => testSmtp(ctx, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
