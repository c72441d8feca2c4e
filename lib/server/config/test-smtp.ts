import "server-only";
import { format } from "node:util";
import nodemailer from "nodemailer";
import type { Logger, LoggerLevel } from "nodemailer/lib/shared";
import { PASSWORD_MASK, type SmtpTestInput } from "@/lib/contracts/config";
import { type AuthedCtx, isAdmin } from "../context";
import { AppError, forbidden } from "../errors";
import { resolveSmtp, type MailRoute, smtpOptions } from "../mail/effective-smtp";
import { smtpFailure } from "../mail/transport";
import { getPlatformConfig } from "./platform-config";

/**
 * POST /config/smtp/test: sends a real mail with the given settings, without saving them, and
 * reports the server's own answer (api.md: 200 {ok, response}; the server's answer otherwise).
 */
export async function testSmtp(ctx: AuthedCtx, input: SmtpTestInput) {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  const { platform_name, smtp } = await getPlatformConfig(ctx.db);
  const to = input.to ?? ctx.actor.user.email.split(",")[0]?.trim();
  if (!to) throw new AppError("invalid_request", "Give `to`: your account has no email address to send the test to");
  if (input.in_force || input.smtp_host === undefined) return sendTest(resolveSmtp(smtp).route, { to, platform_name, debug: input.smtp_debug });
  // The settings form shows the stored password masked; sent back as is, it means "the stored one",
  // which goes to the stored server only: any other host or port would receive it in clear.
  const usesStoredPassword = input.smtp_password === PASSWORD_MASK;
  if (usesStoredPassword && input.smtp_auth && !isStoredServer({ smtp_host: input.smtp_host, smtp_port: input.smtp_port }, smtp)) {
    throw new AppError("invalid_request", "The stored SMTP password is only sent to the stored server: type the password to test another host or port", [
      { path: "smtp_password", message: "type the password for this server" },
    ]);
  }
  const pass = usesStoredPassword ? smtp.smtp_password : input.smtp_password;
  const options = smtpOptions({
    host: input.smtp_host,
    port: input.smtp_port,
    secure: input.smtp_secure,
    auth: input.smtp_auth ? { user: input.smtp_username, pass } : null,
  });
  return sendTest({ options, from: input.smtp_from ?? smtp.smtp_from }, { to, platform_name, debug: input.smtp_debug });
}

/** One test mail through `route`; the server's own answer either way. */
async function sendTest(route: MailRoute | null, test: { to: string; platform_name: string; debug: boolean }) {
  if (!route) throw new AppError("conflict", "No SMTP server is configured: set SMTP_URL or the console's SMTP settings, or give smtp_host to try some");
  const log: string[] = [];
  const transporter = nodemailer.createTransport({ ...route.options, ...(test.debug ? { logger: collectInto(log), debug: true } : {}) });
  const { platform_name } = test;
  try {
    const info = await transporter.sendMail({
      from: route.from,
      to: test.to,
      subject: `${platform_name}: SMTP test`,
      text: `This test mail was sent by ${platform_name} to check its SMTP settings (${route.options.host}:${route.options.port ?? ""}).\n`,
    });
    return { ok: true as const, response: info.response, ...(test.debug ? { log } : {}) };
  } catch (error) {
    const failure = smtpFailure(error);
    throw new AppError("smtp_failed", `The SMTP test failed: ${failure.message}`, {
      response: failure.response,
      ...(failure.code ? { code: failure.code } : {}),
      ...(failure.command ? { command: failure.command } : {}),
      ...(test.debug ? { log } : {}),
    });
  } finally {
    transporter.close();
  }
}

const isStoredServer = (input: { smtp_host: string; smtp_port: number }, stored: { smtp_host: string; smtp_port: number }) =>
  stored.smtp_host.trim() !== "" && input.smtp_host.trim().toLowerCase() === stored.smtp_host.trim().toLowerCase() && input.smtp_port === stored.smtp_port;

// nodemailer masks credentials in its own log lines ("/* secret */").
function collectInto(lines: string[]): Logger {
  const write = (level: LoggerLevel) => (_entry: unknown, message: string, ...args: unknown[]) => {
    if (lines.length < 500) lines.push(`${level}: ${format(message, ...args)}`);
  };
  return { level: () => {}, trace: write("trace"), debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error"), fatal: write("fatal") };
}
