import "server-only";
import type { SmtpSettingsView } from "@/lib/contracts/config";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden } from "../errors";
import { resolveSmtp } from "../mail/effective-smtp";
import { readStoredConfig } from "./platform-config";

/** GET /config/smtp: the SMTP settings in force and the source of each, for administrators; never a password. */
export async function readSmtpSettings(ctx: AuthedCtx): Promise<SmtpSettingsView> {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  const { smtp } = await readStoredConfig(ctx.db);
  return resolveSmtp(smtp).view;
}
