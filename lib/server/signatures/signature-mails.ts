import "server-only";
import type { DbOrTx } from "@/db";
import type { SignatureActorRow, SignatureRequestRow } from "@/db/schema";
import { getPlatformConfig } from "../config/platform-config";
import { configuredBaseUrl } from "../mail/app-url";
import { queueMail } from "../mail/queue-mail";
import { renderMail, type MailTemplate } from "../mail/render-mail";

/** Links in mails built without a request (jobs): BASE_URL, as the alert digests do. */
export const jobBaseUrl = () => configuredBaseUrl() ?? `http://localhost:${process.env.PORT || 3000}`;

export const SIGNATURE_MAILS = {
  invite: {
    en: { subject: "{{actor}} asks you to {{verb}} “{{name}}”", text: "Hello {{recipient}},\n\n{{actor}} asks you to {{verb}} “{{name}}” on {{platform}}.\n\nOpen the documents:\n{{link}}\n{{expiry}}\nThis link is personal: do not forward it." },
    fr: { subject: "{{actor}} vous demande de {{verb}} « {{name}} »", text: "Bonjour {{recipient}},\n\n{{actor}} vous demande de {{verb}} « {{name}} » sur {{platform}}.\n\nOuvrir les documents :\n{{link}}\n{{expiry}}\nCe lien est personnel : ne le transférez pas." },
  },
  remind: {
    en: { subject: "Reminder: “{{name}}” is waiting for you", text: "Hello {{recipient}},\n\n{{actor}} is still waiting for you to {{verb}} “{{name}}”.\n\n{{link}}\n{{expiry}}" },
    fr: { subject: "Rappel : « {{name}} » vous attend", text: "Bonjour {{recipient}},\n\n{{actor}} attend toujours que vous puissiez {{verb}} « {{name}} ».\n\n{{link}}\n{{expiry}}" },
  },
  code: {
    en: { subject: "Your signing code", text: "Your code to sign “{{name}}” on {{platform}} is {{code}}.\n\nIt is valid for 10 minutes. If you did not ask for it, ignore this mail." },
    fr: { subject: "Votre code de signature", text: "Votre code pour signer « {{name}} » sur {{platform}} est {{code}}.\n\nIl est valable 10 minutes. Si vous ne l'avez pas demandé, ignorez ce message." },
  },
  refused: {
    en: { subject: "“{{name}}” was refused", text: "{{signer}} refused “{{name}}”.\n\nReason: {{reason}}\n\nThe request is closed; no document was signed." },
    fr: { subject: "« {{name}} » a été refusé", text: "{{signer}} a refusé « {{name}} ».\n\nMotif : {{reason}}\n\nLa demande est close ; aucun document n'a été signé." },
  },
  done: {
    en: { subject: "“{{name}}” is signed", text: "Every signer signed “{{name}}”.\n\nThe signed documents:\n{{link}}" },
    fr: { subject: "« {{name}} » est signé", text: "Tous les signataires ont signé « {{name}} ».\n\nLes documents signés :\n{{link}}" },
  },
  cancelled: {
    en: { subject: "“{{name}}” was cancelled", text: "{{actor}} cancelled the signature request “{{name}}”. Its links no longer work." },
    fr: { subject: "« {{name}} » a été annulé", text: "{{actor}} a annulé la demande de signature « {{name}} ». Ses liens ne fonctionnent plus." },
  },
} satisfies Record<string, MailTemplate>;

const VERBS = { signer: { en: "sign", fr: "signer" }, approver: { en: "approve", fr: "approuver" }, follower: { en: "follow", fr: "suivre" } } as const;

export const actorName = (a: Pick<SignatureActorRow, "firstName" | "lastName" | "email">) => `${a.firstName} ${a.lastName}`.trim() || a.email;

type Recipient = { email: string; language: string | null; name: string; type?: string };

export async function queueSignatureMail(
  db: DbOrTx,
  kind: keyof typeof SIGNATURE_MAILS,
  to: Recipient,
  request: Pick<SignatureRequestRow, "name" | "expirationDate" | "userId">,
  variables: Record<string, string>,
  options: { sensitive?: boolean } = {},
): Promise<void> {
  const { platform_name } = await getPlatformConfig(db);
  const fr = to.language === "fr";
  const verb = VERBS[(to.type ?? "signer") as keyof typeof VERBS] ?? VERBS.signer;
  const expiry = request.expirationDate ? (fr ? `\nÀ faire avant le ${request.expirationDate.toISOString().slice(0, 10)}.\n` : `\nTo do before ${request.expirationDate.toISOString().slice(0, 10)}.\n`) : "";
  const mail = renderMail(SIGNATURE_MAILS[kind], { platform: platform_name, name: request.name, recipient: to.name, verb: fr ? verb.fr : verb.en, expiry, ...variables }, { language: to.language });
  await queueMail(db, { to: to.email, subject: mail.subject, text: mail.text, html: mail.html, ownerId: request.userId, sensitive: options.sensitive });
}

export const actorRecipient = (a: SignatureActorRow): Recipient => ({ email: a.email, language: a.locale, name: actorName(a), type: a.type });
