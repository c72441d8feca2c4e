import { and, desc, eq } from "drizzle-orm";
import { expect } from "vitest";
import * as contentRoute from "@/app/api/share/content/[key]/route";
import * as keyRoute from "@/app/api/share/key/[key]/route";
import * as visitorRoute from "@/app/api/share/key/[key]/visitor/route";
import { getDb } from "@/db";
import { emails } from "@/db/schema";
import { createFileScene } from "../../helpers/file-ops-factories";
import { unique } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { bearer, createShare } from "../shares/share-helpers";

/** POST /share/key/(key)/visitor from `ip`, with an access token when given. */
export const visit = (key: string, body: unknown, options: { token?: string; ip?: string } = {}) =>
  call(visitorRoute.POST, { method: "POST", params: { key }, body, headers: { ...bearer(options.token), "x-forwarded-for": options.ip ?? "10.30.0.1" } });

/** GET /share/key/(key) with an access token when given. */
export const view = (key: string, token?: string) => call(keyRoute.GET, { method: "GET", params: { key }, headers: bearer(token) });

/** GET /share/content/(key): the operation every gated link refuses before a visitor's token. */
export const content = (key: string, token?: string) => call(contentRoute.GET, { method: "GET", params: { key }, headers: bearer(token) });

/** A visitor address nobody else uses, at `domain`. */
export const address = (domain = "example.org") => `${unique("v")}@${domain}`;

/** An owner's folder shared by link with `options` (gate fields among them). */
export async function gatedShare(options: Record<string, unknown> = {}) {
  const scene = await createFileScene({ name: "proposal.txt", text: "the proposal" });
  const share = await createShare(scene.owner, { roots: [{ id: scene.folder.id, entity_type: 0 }], name: "Proposal", ...options });
  return { ...scene, share };
}

/** A visitor's access token for `key` (the gate satisfied by `body`); fails the test otherwise. */
export async function visitorToken(key: string, body: unknown, token?: string): Promise<string> {
  const res = await visit(key, body, { token });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

/** The last code mailed to `to` (from the outbox, as the mail job would send it). */
export async function mailedCode(to: string): Promise<string> {
  const [mail] = await (await getDb()).select().from(emails).where(eq(emails.to, to)).orderBy(desc(emails.id)).limit(1);
  expect(mail, `no mail to ${to}`).toBeDefined();
  expect(mail.sensitive).toBe(true);
  return /\b(\d{6})\b/.exec(mail.content)![1];
}

/** The mails queued to `to` whose subject contains `subject`. */
export async function mailsTo(to: string, subject: string) {
  const list = await (await getDb()).select().from(emails).where(and(eq(emails.to, to)));
  return list.filter((m) => m.object.includes(subject));
}
