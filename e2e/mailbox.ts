import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { E2E_PORT } from "./env";

/** The local SMTP server the e2e app delivers to (playwright.config.ts sets SMTP_URL to it). */
export const E2E_SMTP_PORT = E2E_PORT + 1;
const MAILBOX = path.join(tmpdir(), `coffre-e2e-mail-${E2E_SMTP_PORT}.jsonl`);
/** Addresses (one a line) the server refuses with a 550 while they are listed: a delivery failure on demand. */
const REFUSED = path.join(tmpdir(), `coffre-e2e-mail-${E2E_SMTP_PORT}.refused`);

/** Makes the mailbox refuse (or accept again) mail to `address`. */
export function refuseMailTo(address: string, refuse = true) {
  const listed = existsSync(REFUSED) ? readFileSync(REFUSED, "utf8").split("\n").filter(Boolean) : [];
  writeFileSync(REFUSED, [...listed.filter((a) => a !== address), ...(refuse ? [address] : [])].join("\n"));
}

export type E2eMail = { to: string[]; subject: string; raw: string };

/**
 * Started by the global setup: a real SMTP server that appends each message to a file, so the
 * journeys (in other processes) can read what the app mailed.
 */
export async function startMailbox(): Promise<() => Promise<void>> {
  const { SMTPServer } = await import("smtp-server");
  rmSync(MAILBOX, { force: true });
  rmSync(REFUSED, { force: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refused = existsSync(REFUSED) && readFileSync(REFUSED, "utf8").split("\n").includes(address.address);
      if (!refused) return callback();
      callback(Object.assign(new Error(`5.1.1 <${address.address}>: mailbox unavailable`), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const subject = decodeSubject(/^subject:\s*(.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? "");
        const mail: E2eMail = { to: session.envelope.rcptTo.map((r) => r.address), subject, raw };
        appendFileSync(MAILBOX, `${JSON.stringify(mail)}\n`);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(E2E_SMTP_PORT, "127.0.0.1", () => resolve());
  });
  return () => new Promise((resolve) => server.close(() => resolve()));
}

/** Encoded words (=?UTF-8?Q?…?= / ?B?) of a subject header, folded lines joined. */
function decodeSubject(value: string): string {
  return value
    .replace(/\r?\n[ \t]/g, " ")
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
      kind.toLowerCase() === "b" ? Buffer.from(text, "base64").toString("utf8") : Buffer.from(text.replace(/_/g, " ").replace(/=([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8"),
    )
    .trim();
}

/** The mails received so far. */
export function receivedMails(): E2eMail[] {
  if (!existsSync(MAILBOX)) return [];
  return readFileSync(MAILBOX, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as E2eMail);
}

/** A mail's text whatever its transfer encoding (quoted-printable or base64 parts). */
export function mailText(mail: E2eMail): string {
  const quoted = mail.raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const base64Parts = [...mail.raw.matchAll(/Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi)].map((m) => Buffer.from(m[1].replace(/\s/g, ""), "base64").toString("utf8"));
  return [quoted, ...base64Parts].join("\n");
}
