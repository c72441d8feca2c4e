import "server-only";
import { parseConnectionUrl } from "nodemailer/lib/shared/index.js";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { PlatformConfig, SmtpSettingsView, SmtpSource } from "@/lib/contracts/config";
import { DEFAULT_CONFIG } from "../config/platform-config";

export type SmtpOptions = SMTPTransport.Options;

/** Where mail goes now, or null when no SMTP server is configured (mails wait in the outbox). */
export type MailRoute = { options: SmtpOptions; from: string };

// A server that never answers must not hold a job (or an administrator's test) for minutes.
export const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

export function smtpOptions(s: { host: string; port: number; secure: boolean; auth: { user: string; pass: string } | null }): SmtpOptions {
  return { host: s.host, port: s.port || (s.secure ? 465 : 25), secure: s.secure, ...(s.auth ? { auth: s.auth } : {}), ...SMTP_TIMEOUTS };
}

/**
 * The SMTP settings mail goes through, and where each comes from. The connection (host, port,
 * security, user, password) comes whole from one place, never mixed: otherwise the console could
 * point another host at SMTP_URL's password. SMTP_URL wins unless the console's `smtp_override` is
 * on (with a host of its own); without SMTP_URL the console's settings apply once they name a
 * host. The sender is always the console's (SMTP_URL carries none).
 */
export function resolveSmtp(smtp: PlatformConfig["smtp"], smtpUrl = process.env.SMTP_URL): { route: MailRoute | null; view: SmtpSettingsView } {
  const url = smtpUrl?.trim() || null;
  const fromSource: SmtpSource = smtp.smtp_from === DEFAULT_CONFIG.smtp.smtp_from ? "default" : "console";
  const from = { value: smtp.smtp_from, source: fromSource };
  const common = { environment: url !== null, override: smtp.smtp_override, from };

  if (smtp.smtp_host && (url === null || smtp.smtp_override)) {
    const auth = smtp.smtp_auth ? { user: smtp.smtp_username, pass: smtp.smtp_password } : null;
    const options = smtpOptions({ host: smtp.smtp_host, port: smtp.smtp_port, secure: smtp.smtp_secure, auth });
    const own = "console" as const;
    return {
      route: { options, from: smtp.smtp_from },
      view: {
        ...common,
        origin: own,
        host: { value: smtp.smtp_host, source: own },
        port: { value: options.port!, source: smtp.smtp_port ? own : "default" },
        security: { value: smtp.smtp_secure ? "tls" : "starttls", source: own },
        user: { value: auth?.user ?? "", source: own },
        password: { value: Boolean(auth?.pass), source: own },
      },
    };
  }
  if (url !== null) {
    const parsed = parseConnectionUrl(url) as SmtpOptions & { auth?: { user?: string; pass?: string } };
    const env = "environment" as const;
    const secure = Boolean(parsed.secure);
    return {
      route: { options: { ...parsed, ...SMTP_TIMEOUTS }, from: smtp.smtp_from },
      view: {
        ...common,
        origin: env,
        host: parsed.host ? { value: parsed.host, source: env } : { value: "localhost", source: "default" },
        // nodemailer's own defaults when the URL names no port.
        port: parsed.port ? { value: Number(parsed.port), source: env } : { value: secure ? 465 : 587, source: "default" },
        security: { value: secure ? "tls" : parsed.requireTLS ? "starttls_required" : "starttls", source: env },
        user: { value: parsed.auth?.user ?? "", source: env },
        password: { value: Boolean(parsed.auth?.pass), source: env },
      },
    };
  }
  return {
    route: null,
    view: {
      ...common,
      origin: null,
      host: { value: "", source: "default" },
      port: { value: smtp.smtp_port || 25, source: smtp.smtp_port === DEFAULT_CONFIG.smtp.smtp_port ? "default" : "console" },
      security: { value: smtp.smtp_secure ? "tls" : "starttls", source: smtp.smtp_secure ? "console" : "default" },
      user: { value: smtp.smtp_auth ? smtp.smtp_username : "", source: smtp.smtp_auth ? "console" : "default" },
      password: { value: false, source: "default" },
    },
  };
}
