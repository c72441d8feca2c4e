import "server-only";
import { inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { users, type User, type WorkflowInstanceRow, type WorkflowParticipantRow } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { queueMail } from "../mail/queue-mail";
import { renderMail, type MailTemplate } from "../mail/render-mail";
import { participantToken, workflowUrl } from "./workflow-tokens";

/** What a validator receives (flux 1 and 4): the documents, the initiator's comment, their own link. */
export const WORKFLOW_VALIDATION_MAIL: MailTemplate = {
  en: {
    subject: "{{actor}} asks you to validate {{documents}}",
    text: "{{actor}} asks you to validate {{documents}} on {{platform}}.\n{{comment}}\nOpen the documents and give your decision (validate or refuse):\n{{link}}\n\nThis link is personal: do not forward it.",
  },
  fr: {
    subject: "{{actor}} vous demande de valider {{documents}}",
    text: "{{actor}} vous demande de valider {{documents}} sur {{platform}}.\n{{comment}}\nOuvrez les documents et donnez votre décision (valider ou refuser) :\n{{link}}\n\nCe lien est personnel : ne le transférez pas.",
  },
};

/** Flux 2: the signer downloads, prints, signs by hand, scans and sends the scan back on the same page. */
export const WORKFLOW_SCAN_MAIL: MailTemplate = {
  en: {
    subject: "{{actor}} asks you to sign {{documents}}",
    text: "{{actor}} asks you to sign {{documents}} by hand on {{platform}}.\n{{comment}}\nOpen the page below, download the document, print and sign it, then send the scanned signed PDF back on the same page:\n{{link}}\n\nThis link is personal: do not forward it.",
  },
  fr: {
    subject: "{{actor}} vous demande de signer {{documents}}",
    text: "{{actor}} vous demande de signer à la main {{documents}} sur {{platform}}.\n{{comment}}\nOuvrez la page ci-dessous, téléchargez le document, imprimez-le et signez-le, puis renvoyez le PDF signé et numérisé sur la même page :\n{{link}}\n\nCe lien est personnel : ne le transférez pas.",
  },
};

/** The initiator learns the outcome, with each participant's decision and comment. */
export const WORKFLOW_CLOSED_MAIL: MailTemplate = {
  en: {
    subject: "{{documents}}: {{outcome}}",
    text: "Your request about {{documents}} on {{platform}} is closed: {{outcome}}.\n\n{{decisions}}\n\nSee your validations:\n{{link}}",
  },
  fr: {
    subject: "{{documents}} : {{outcome}}",
    text: "Votre demande concernant {{documents}} sur {{platform}} est close : {{outcome}}.\n\n{{decisions}}\n\nVoir vos validations :\n{{link}}",
  },
};

/** `send_copy`: everyone gets a download link to the documents once the instance is complete. */
export const WORKFLOW_COPY_MAIL: MailTemplate = {
  en: {
    subject: "Your copy of {{documents}}",
    text: "The request of {{actor}} about {{documents}} on {{platform}} is complete: {{outcome}}.\n\nDownload your copy:\n{{link}}",
  },
  fr: {
    subject: "Votre copie de {{documents}}",
    text: "La demande de {{actor}} concernant {{documents}} sur {{platform}} est terminée : {{outcome}}.\n\nTéléchargez votre copie :\n{{link}}",
  },
};

/** Participants still awaited learn that their link no longer works. */
export const WORKFLOW_CANCELLED_MAIL: MailTemplate = {
  en: { subject: "Cancelled: {{documents}}", text: "{{actor}} cancelled the request about {{documents}} on {{platform}}. Your link no longer works; nothing more is expected from you." },
  fr: { subject: "Annulée : {{documents}}", text: "{{actor}} a annulé la demande concernant {{documents}} sur {{platform}}. Votre lien ne fonctionne plus ; rien d'autre n'est attendu de vous." },
};

const OUTCOME: Record<string, { en: string; fr: string }> = {
  validated: { en: "validated", fr: "validé" },
  refused: { en: "refused", fr: "refusé" },
  signed: { en: "signed", fr: "signé" },
  cancelled: { en: "cancelled", fr: "annulé" },
};

const DECISION: Record<string, { en: string; fr: string }> = {
  validated: { en: "validated", fr: "a validé" },
  refused: { en: "refused", fr: "a refusé" },
  signed: { en: "signed", fr: "a signé" },
  none: { en: "did not answer", fr: "n'a pas répondu" },
};

type Lang = "en" | "fr";
const langOf = (language: string | null | undefined): Lang => (language === "fr" ? "fr" : "en");

/** "a.pdf", "a.pdf and b.pdf", "a.pdf, b.pdf and 2 more": short enough for a subject. */
export function documentsLabel(names: string[], language: string | null | undefined): string {
  const lang = langOf(language);
  const and = lang === "fr" ? "et" : "and";
  if (names.length === 0) return lang === "fr" ? "une demande" : "a request";
  if (names.length === 1) return `"${names[0]}"`;
  if (names.length === 2) return `"${names[0]}" ${and} "${names[1]}"`;
  return `"${names[0]}", "${names[1]}" ${and} ${names.length - 2} ${lang === "fr" ? "autre(s)" : "more"}`;
}

/** The language each participant reads: a user's own, an outside address the initiator's. */
async function languagesOf(db: DbOrTx, participants: WorkflowParticipantRow[], owner: User): Promise<Map<number, string>> {
  const ids = [...new Set(participants.flatMap((p) => (p.userId ? [p.userId] : [])))];
  const found = ids.length ? await db.select({ id: users.id, language: users.language }).from(users).where(inArray(users.id, ids)) : [];
  const byUser = new Map(found.map((u) => [u.id, u.language]));
  return new Map(participants.map((p) => [p.id, (p.userId && byUser.get(p.userId)) || owner.language]));
}

/** One mail per participant with their own link; the body carries a secret, so the outbox never shows it. */
export async function queueInvitationMails(
  db: DbOrTx,
  owner: User,
  instance: WorkflowInstanceRow,
  invited: { participant: WorkflowParticipantRow; secret: string }[],
  documentNames: string[],
  base: string,
) {
  const { platform_name } = await getPlatformConfig(db);
  const languages = await languagesOf(db, invited.map((i) => i.participant), owner);
  for (const { participant, secret } of invited) {
    const language = languages.get(participant.id);
    const template = participant.role === "signer" ? WORKFLOW_SCAN_MAIL : WORKFLOW_VALIDATION_MAIL;
    const mail = renderMail(
      template,
      {
        actor: displayName(owner),
        documents: documentsLabel(documentNames, language),
        platform: platform_name,
        comment: instance.comment ? `\n${instance.comment}\n` : "",
        link: workflowUrl(base, participantToken(participant.id, secret)),
        recipient: participant.email,
      },
      { language },
    );
    await queueMail(db, { to: participant.email, ownerId: owner.id, subject: mail.subject, text: mail.text, html: mail.html, sensitive: true });
  }
}

/** The outcome to the initiator, with each participant's decision and comment. */
export async function queueClosedMail(db: DbOrTx, owner: User, instance: WorkflowInstanceRow, participants: WorkflowParticipantRow[], documentNames: string[], base: string) {
  if (!owner.email) return;
  const { platform_name } = await getPlatformConfig(db);
  const lang = langOf(owner.language);
  const decisions = participants
    .map((p) => {
      const who = p.name ? `${p.name} <${p.email}>` : p.email;
      const said = DECISION[p.decision ?? "none"][lang];
      return `- ${who} ${said}${p.comment ? `: ${p.comment}` : ""}`;
    })
    .join("\n");
  const mail = renderMail(
    WORKFLOW_CLOSED_MAIL,
    { documents: documentsLabel(documentNames, owner.language), platform: platform_name, outcome: OUTCOME[instance.state]?.[lang] ?? instance.state, decisions, link: `${base}/workflows` },
    { language: owner.language },
  );
  await queueMail(db, { to: firstAddress(owner.email), ownerId: owner.id, subject: mail.subject, text: mail.text, html: mail.html });
}

/** send_copy: the initiator and every participant get the link of a download share. */
export async function queueCopyMails(db: DbOrTx, owner: User, instance: WorkflowInstanceRow, participants: WorkflowParticipantRow[], documentNames: string[], shareUrl: string) {
  const { platform_name } = await getPlatformConfig(db);
  const languages = await languagesOf(db, participants, owner);
  const recipients = new Map<string, string>();
  if (owner.email) recipients.set(firstAddress(owner.email).toLowerCase(), owner.language);
  for (const p of participants) if (!recipients.has(p.email.toLowerCase())) recipients.set(p.email.toLowerCase(), languages.get(p.id) ?? owner.language);
  for (const [to, language] of recipients) {
    const lang = langOf(language);
    const mail = renderMail(
      WORKFLOW_COPY_MAIL,
      { actor: displayName(owner), documents: documentsLabel(documentNames, language), platform: platform_name, outcome: OUTCOME[instance.state]?.[lang] ?? instance.state, link: shareUrl },
      { language },
    );
    await queueMail(db, { to, ownerId: owner.id, subject: mail.subject, text: mail.text, html: mail.html });
  }
}

/** Cancellation: whoever was still awaited is told their link is dead. */
export async function queueCancelledMails(db: DbOrTx, owner: User, participants: WorkflowParticipantRow[], documentNames: string[]) {
  const { platform_name } = await getPlatformConfig(db);
  const languages = await languagesOf(db, participants, owner);
  for (const p of participants) {
    const language = languages.get(p.id);
    const mail = renderMail(WORKFLOW_CANCELLED_MAIL, { actor: displayName(owner), documents: documentsLabel(documentNames, language), platform: platform_name }, { language });
    await queueMail(db, { to: p.email, ownerId: owner.id, subject: mail.subject, text: mail.text, html: mail.html });
  }
}

/** `users.email` may hold several comma-separated addresses: mails go to the first. */
export const firstAddress = (email: string) => email.split(",")[0].trim();
