import "server-only";
import { createHash } from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { DbOrTx } from "@/db";
import { getPlatformConfig } from "../config/platform-config";
import { resolveSmtp, type MailRoute, type SmtpOptions } from "./effective-smtp";

export type { MailRoute, SmtpOptions } from "./effective-smtp";
export { smtpOptions } from "./effective-smtp";

/** Where mail goes now (effective-smtp.ts decides between SMTP_URL and the console), or null. */
export async function resolveMailRoute(db: DbOrTx): Promise<MailRoute | null> {
  const { smtp } = await getPlatformConfig(db);
  return resolveSmtp(smtp).route;
}

export const isSmtpConfigured = (smtpHost: string) => Boolean(process.env.SMTP_URL?.trim() || smtpHost);

// One transporter per distinct settings, so a change of configuration takes effect at once
// while unchanged settings reuse theirs. Few entries: settings change rarely.
const transporters = new Map<string, Transporter<SMTPTransport.SentMessageInfo>>();
const MAX_TRANSPORTERS = 4;

export function transporterFor(options: SmtpOptions): Transporter<SMTPTransport.SentMessageInfo> {
  const key = createHash("sha256").update(JSON.stringify(options)).digest("hex");
  let transporter = transporters.get(key);
  if (!transporter) {
    transporter = nodemailer.createTransport(options);
    transporters.set(key, transporter);
    if (transporters.size > MAX_TRANSPORTERS) {
      const [oldestKey, oldest] = transporters.entries().next().value!;
      transporters.delete(oldestKey);
      oldest.close();
    }
  }
  return transporter;
}

/** The server's own words for a failed delivery, for the outbox and the SMTP test. */
export function smtpFailure(error: unknown): { message: string; response: string; code?: string; command?: string } {
  const e = error as { message?: string; response?: string; code?: string; command?: string };
  const message = e?.message ?? String(error);
  return { message, response: e?.response ?? message, code: e?.code, command: e?.command };
}
