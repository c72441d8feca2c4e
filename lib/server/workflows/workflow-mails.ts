import "server-only";
import { inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { users, type User, type WorkflowInstanceRow, type WorkflowParticipantRow } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { queueMail } from "../mail/queue-mail";
import { notifyUsers, usersWithEmail } from "../notifications/notify";
import type { Translate } from "@/lib/i18n/translate";
import { fill, mailTemplate, mailTranslator, renderMail } from "../mail/render-mail";
import { participantToken, workflowUrl } from "./workflow-tokens";

/** What a validator receives (flux 1 and 4): the documents, the initiator's comment, their own link. */
export const WORKFLOW_VALIDATION_MAIL = mailTemplate("workflowValidation");
/** Flux 2: the signer downloads, prints, signs by hand, scans and sends the scan back on the same page. */
export const WORKFLOW_SCAN_MAIL = mailTemplate("workflowScan");
/** The initiator learns the outcome, with each participant's decision and comment. */
export const WORKFLOW_CLOSED_MAIL = mailTemplate("workflowClosed");
/** `send_copy`: everyone gets a download link to the documents once the instance is complete. */
export const WORKFLOW_COPY_MAIL = mailTemplate("workflowCopy");
/** Participants still awaited learn that their link no longer works. */
export const WORKFLOW_CANCELLED_MAIL = mailTemplate("workflowCancelled");

const OUTCOMES = ["validated", "refused", "signed", "cancelled"] as const;
const DECISIONS = ["validated", "refused", "signed"] as const;

/** The instance's state in words; a state without words is written as it is. */
function outcomeOf(state: string, t: Translate): string {
  const known = OUTCOMES.find((o) => o === state);
  return known ? t(`mail.workflow.outcome.${known}`) : state;
}

function decisionOf(decision: string | null, t: Translate): string {
  const known = DECISIONS.find((d) => d === decision);
  return t(known ? `mail.workflow.decision.${known}` : "mail.workflow.decision.none");
}

/** "a.pdf", "a.pdf and b.pdf", "a.pdf, b.pdf and 2 more": short enough for a subject. */
export function documentsLabel(names: string[], language: string | null | undefined): string {
  const t = mailTranslator(language);
  if (names.length === 0) return t("mail.workflow.documents.none");
  if (names.length === 1) return `"${names[0]}"`;
  const pair = { first: names[0], second: names[1], count: String(names.length - 2) };
  return fill(t(names.length === 2 ? "mail.workflow.documents.two" : "mail.workflow.documents.many"), pair);
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
    // Issue 29: a participant with an account also finds the request in the app.
    const accounts = participant.userId ? [participant.userId] : await usersWithEmail(db, [participant.email]);
    await notifyUsers(db, accounts, { type: "validation", actorId: owner.id, object: { type: "workflow", id: instance.id, name: documentNames.join(", ") } });
  }
}

/** The outcome to the initiator, with each participant's decision and comment. */
export async function queueClosedMail(db: DbOrTx, owner: User, instance: WorkflowInstanceRow, participants: WorkflowParticipantRow[], documentNames: string[], base: string) {
  if (!owner.email) return;
  const { platform_name } = await getPlatformConfig(db);
  const t = mailTranslator(owner.language);
  const decisions = participants
    .map((p) => {
      const who = p.name ? `${p.name} <${p.email}>` : p.email;
      const said = decisionOf(p.decision, t);
      return `- ${who} ${said}${p.comment ? `: ${p.comment}` : ""}`;
    })
    .join("\n");
  const mail = renderMail(
    WORKFLOW_CLOSED_MAIL,
    { documents: documentsLabel(documentNames, owner.language), platform: platform_name, outcome: outcomeOf(instance.state, t), decisions, link: `${base}/workflows` },
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
    const mail = renderMail(
      WORKFLOW_COPY_MAIL,
      { actor: displayName(owner), documents: documentsLabel(documentNames, language), platform: platform_name, outcome: outcomeOf(instance.state, mailTranslator(language)), link: shareUrl },
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
