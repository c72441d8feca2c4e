import { smtpSettingsResponse } from "@/lib/contracts/config";
import { readSmtpSettings } from "@/lib/server/config/read-smtp-settings";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/config/smtp: the SMTP settings mail goes through now and where each comes from (no password)
export const GET = route({ auth: "admin", response: smtpSettingsResponse }, ({ ctx }) => readSmtpSettings(ctx));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
