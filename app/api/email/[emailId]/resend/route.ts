import { emailParams, emailResponse } from "@/lib/contracts/emails";
import { resendEmail } from "@/lib/server/emails/resend-email";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/email/(emailId)/resend: deliver a waiting (typically failed) mail of the outbox again (administrators)
export const POST = route({ auth: "admin", params: emailParams, response: emailResponse }, ({ ctx, params }) => resendEmail(ctx, params.emailId));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
