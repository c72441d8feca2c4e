import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { getDb } from "@/db";
import { emails } from "@/db/schema";
import { sendMailJob } from "@/lib/server/mail/send-mail-job";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  from: string;
  to: string[];
  /** The message as the server received it (headers and body). */
  raw: string;
  subject: string;
  /** The body (the text/plain part of a multipart mail) with quoted-printable soft breaks and escapes undone. */
  text: string;
  user?: string;
};

export type TestSmtpServer = {
  host: string;
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Resolves with the first mail (already received or arriving) that matches. */
  waitFor: (match: (mail: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
};

/**
 * A real SMTP server on a free local port that keeps what it receives. Plain text only (no
 * STARTTLS), authentication optional; with `auth`, only those credentials are accepted.
 */
export async function startSmtpServer(options: { auth?: { user: string; pass: string } } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters: { match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: !options.auth,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (!options.auth || (auth.username === options.auth.user && auth.password === options.auth.pass)) return callback(null, { user: auth.username });
      callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: headerOf(raw, "subject"),
          text: bodyOf(raw),
          user: typeof session.user === "string" ? session.user : undefined,
        };
        received.push(mail);
        for (const w of [...waiters]) {
          if (w.match(mail)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  return {
    host: "127.0.0.1",
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor(match, timeoutMs = 10_000) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no matching mail arrived")), timeoutMs);
        waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function headerOf(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name}:`));
  return line ? line.slice(name.length + 1).trim() : "";
}

function bodyOf(raw: string): string {
  const at = raw.search(/\r?\n\r?\n/);
  const body = at < 0 ? "" : raw.slice(at).replace(/^\r?\n\r?\n/, "");
  // A mail with an HTML part: the text is its text/plain part, decoded the same way.
  const boundary = headerOf(raw, "content-type").match(/^multipart\/[^;]+;.*boundary="?([^";]+)"?/i)?.[1];
  if (boundary) {
    const parts = body.split(`--${boundary}`).map((p) => p.replace(/^\r?\n/, "").replace(/\r?\n$/, ""));
    const plain = parts.find((p) => /^text\/plain/i.test(headerOf(p, "content-type")));
    if (plain) return bodyOf(plain);
  }
  if (!/quoted-printable/i.test(headerOf(raw, "content-transfer-encoding"))) return body;
  // Escaped bytes are UTF-8: gather them as bytes, then decode.
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/**
 * For a test file whose mails are really delivered: opens the database, starts a local SMTP
 * server and points SMTP_URL at it for the whole file, then puts SMTP_URL back. Returns the server.
 */
export function withLocalSmtp(open: () => Promise<unknown>, timeout: number): () => TestSmtpServer {
  let server: TestSmtpServer;
  const saved = process.env.SMTP_URL;
  beforeAll(async () => {
    await open();
    server = await startSmtpServer();
    process.env.SMTP_URL = server.url;
  }, timeout);
  afterAll(async () => {
    if (saved === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = saved;
    await server.close();
  });
  return () => server;
}

/**
 * Sends this test's waiting mails to `to` through its own process's SMTP settings until `server`
 * has one that matches. Each mail is sent directly (sendMailJob), never through the shared job
 * queue: test files run in parallel on one database, and a file running the queue would deliver
 * another file's mails to its own SMTP server.
 */
export async function deliverTo(server: TestSmtpServer, to: string, match: (mail: ReceivedMail) => boolean = () => true): Promise<ReceivedMail> {
  const db = await getDb();
  const wanted = (m: ReceivedMail) => m.to.includes(to) && match(m);
  for (let i = 0; i < 400; i++) {
    const found = server.received.find(wanted);
    if (found) return found;
    const waiting = await db.select({ id: emails.id }).from(emails).where(and(eq(emails.to, to), eq(emails.type, "EM_TE_TOSEND")));
    for (const { id } of waiting) await sendMailJob(db, { emailId: id }).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no mail to ${to} arrived`);
}
