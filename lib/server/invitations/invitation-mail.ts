import "server-only";
import type { MailLanguage, MailTemplate } from "../mail/render-mail";

/** Mailed to the invited address; {{link}} leads to the page that completes the account. */
export const INVITATION_MAIL: MailTemplate = {
  en: {
    subject: "{{actor}} invites you to {{folder}} on {{platform}}",
    text: "Hello,\n\n{{actor}} invites you to the folder \"{{folder}}\" on {{platform}}.\n\nCreate your account here to open it:\n{{link}}\n\nThis invitation is valid until: {{expiration}}.\n\nIf you do not know {{actor}}, ignore this mail: no account is created without you.\n",
  },
  fr: {
    subject: "{{actor}} vous invite sur {{folder}} ({{platform}})",
    text: "Bonjour,\n\n{{actor}} vous invite à accéder au dossier « {{folder}} » sur {{platform}}.\n\nCréez votre compte ici pour l’ouvrir :\n{{link}}\n\nCette invitation est valable jusqu’au : {{expiration}}.\n\nSi vous ne connaissez pas {{actor}}, ignorez ce message : aucun compte n’est créé sans vous.\n",
  },
};

const NO_LIMIT: Record<MailLanguage, string> = { en: "no limit", fr: "sans limite" };

/** The expiration as the mail writes it, in UTC (the invited person's time zone is unknown). */
export function mailExpiration(expiration: Date | null, language: MailLanguage): string {
  if (!expiration) return NO_LIMIT[language];
  const locale = language === "fr" ? "fr-FR" : "en-GB";
  return `${expiration.toLocaleString(locale, { timeZone: "UTC", dateStyle: "long", timeStyle: "short" })} UTC`;
}
