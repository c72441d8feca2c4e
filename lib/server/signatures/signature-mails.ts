import "server-only";
import type { DbOrTx } from "@/db";
import type { SignatureActorRow, SignatureRequestRow } from "@/db/schema";
import { getPlatformConfig } from "../config/platform-config";
import { configuredBaseUrl } from "../mail/app-url";
import { queueMail, type MailAttachment } from "../mail/queue-mail";
import { fill, mailTemplate, mailTranslator, renderMail } from "../mail/render-mail";

/** Links in mails built without a request (jobs): BASE_URL, as the alert digests do. */
export const jobBaseUrl = () => configuredBaseUrl() ?? `http://localhost:${process.env.PORT || 3000}`;

export const SIGNATURE_MAILS = {
  invite: mailTemplate("signatureInvite"),
  remind: mailTemplate("signatureRemind"),
  code: mailTemplate("signatureCode"),
  refused: mailTemplate("signatureRefused"),
  done: mailTemplate("signatureDone"),
  copy: mailTemplate("signatureCopy"),
  cancelled: mailTemplate("signatureCancelled"),
};

const VERBS = ["signer", "approver", "follower"] as const;

export const actorName = (a: Pick<SignatureActorRow, "firstName" | "lastName" | "email">) => `${a.firstName} ${a.lastName}`.trim() || a.email;

type Recipient = { email: string; language: string | null; name: string; type?: string };

export async function queueSignatureMail(
  db: DbOrTx,
  kind: keyof typeof SIGNATURE_MAILS,
  to: Recipient,
  request: Pick<SignatureRequestRow, "name" | "expirationDate" | "userId"> & { subject?: string | null },
  variables: Record<string, string>,
  options: { sensitive?: boolean; attachments?: MailAttachment[]; message?: string | null } = {},
): Promise<void> {
  const { platform_name } = await getPlatformConfig(db);
  const t = mailTranslator(to.language);
  const verb = VERBS.find((v) => v === to.type) ?? "signer";
  const expiry = request.expirationDate ? fill(t("mail.signature.expiry"), { date: request.expirationDate.toISOString().slice(0, 10) }) : "";
  // The sender's own words (issue 31): set apart and attributed, filled in as a value (never as a template).
  const message = options.message ? fill(t("mail.signature.message"), { actor: variables.actor ?? "", message: options.message }) : "";
  const subject = kind === "invite" ? request.subject : null;
  const mail = renderMail(SIGNATURE_MAILS[kind], { platform: platform_name, name: request.name, recipient: to.name, verb: t(`mail.signature.verb.${verb}`), expiry, ...variables, message }, { language: to.language, subject });
  await queueMail(db, { to: to.email, subject: mail.subject, text: mail.text, html: mail.html, ownerId: request.userId, sensitive: options.sensitive, attachments: options.attachments });
}

export const actorRecipient = (a: SignatureActorRow): Recipient => ({ email: a.email, language: a.locale, name: actorName(a), type: a.type });
