import "server-only";
import { mailTemplate, mailTranslator, type MailLanguage } from "../mail/render-mail";

/** Mailed to the invited address; {{link}} leads to the page that completes the account. */
export const INVITATION_MAIL = mailTemplate("invitation");

/** The expiration as the mail writes it, in UTC (the invited person's time zone is unknown). */
export function mailExpiration(expiration: Date | null, language: MailLanguage): string {
  if (!expiration) return mailTranslator(language)("mail.invitation.noLimit");
  const locale = language === "fr" ? "fr-FR" : "en-GB";
  return `${expiration.toLocaleString(locale, { timeZone: "UTC", dateStyle: "long", timeStyle: "short" })} UTC`;
}
