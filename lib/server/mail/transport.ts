import "server-only";
import { createHash } from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared/index.js";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { DbOrTx } from "@/db";
import { getPlatformConfig } from "../config/platform-config";

export type SmtpOptions = SMTPTransport.Options;

/** Where mail goes now, or null when no SMTP server is configured (mails wait in the outbox). */
export type MailRoute = { options: SmtpOptions; from: string };

// A server that never answers must not hold a job (or an administrator's test) for minutes.
const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

/** SMTP_URL (environment) wins over the platform configuration; an empty host means "not configured". */
export async function resolveMailRoute(db: DbOrTx): Promise<MailRoute | null> {
  const { smtp } = await getPlatformConfig(db);
  const url = process.env.SMTP_URL?.trim();
  if (url) return { options: { ...parseConnectionUrl(url), ...TIMEOUTS }, from: smtp.smtp_from };
  if (!smtp.smtp_host) return null;
  return {
    options: smtpOptions({
      host: smtp.smtp_host,
      port: smtp.smtp_port,
      secure: smtp.smtp_secure,
      auth: smtp.smtp_auth ? { user: smtp.smtp_username, pass: smtp.smtp_password } : null,
    }),
    from: smtp.smtp_from,
  };
}

export function smtpOptions(s: { host: string; port: number; secure: boolean; auth: { user: string; pass: string } | null }): SmtpOptions {
  return { host: s.host, port: s.port || (s.secure ? 465 : 25), secure: s.secure, ...(s.auth ? { auth: s.auth } : {}), ...TIMEOUTS };
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
