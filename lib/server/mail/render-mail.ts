import "server-only";
/**
 * Mail templates: a subject and a text body per language with `{{placeholder}}`s. Their texts live
 * in the i18n catalogues (lib/i18n/catalogues/mail.ts, keys `mail.<name>.subject|text`); each
 * domain names its templates next to its operations (`mailTemplate`) and renders them here;
 * the HTML part is made from the same text, escaped, with addresses turned into links, so the two
 * parts never say different things. Administrators' custom alert mails (EM_TE_ALERT) go through
 * the same substitution. The HTML part opens with the platform's brand (brandOf): its name on its
 * accent colour, and its logo when the platform has one and BASE_URL says where it is served.
 */
import { textOn } from "@/lib/contracts/config";
import { isUiLanguage, UI_LANGUAGES, type UiLanguage } from "@/lib/i18n/languages";
import { createTranslator, type MessageKey, type Translate } from "@/lib/i18n/translate";
import { lastReadConfig, logoPath } from "../config/platform-config";
import { configuredBaseUrl } from "./app-url";

export type MailLanguage = UiLanguage;

export type MailTemplate = Record<MailLanguage, { subject: string; text: string }>;

/** The names of the catalogues' mails: `accountCreated` for `mail.accountCreated.subject` and `.text`. */
export type MailName = MessageKey extends infer K ? (K extends `mail.${infer N}.subject` ? N : never) : never;

/** One system mail in every language, from the catalogues. */
export function mailTemplate(name: MailName): MailTemplate {
  const entries = UI_LANGUAGES.map((language) => {
    const t = createTranslator(language);
    return [language, { subject: t(`mail.${name}.subject` as MessageKey), text: t(`mail.${name}.text` as MessageKey) }] as const;
  });
  return Object.fromEntries(entries) as MailTemplate;
}

/** The catalogue of a recipient's language, for the pieces a service puts into a mail (`{{name}}`s stay for `fill`). */
export const mailTranslator = (language: string | null | undefined): Translate => createTranslator(mailLanguage(language));

export type RenderedMail = { subject: string; text: string; html: string };

/** What the HTML header shows: the platform name, its colour, the logo's absolute address if any. */
export type MailBrand = { name: string; color: string; logoUrl: string | null };

/**
 * The brand of the configuration this process read last: every caller of renderMail reads the
 * configuration just before, for the platform name. The logo needs an absolute address, which
 * only BASE_URL gives (jobs render mails without any request): no BASE_URL, no logo.
 */
export function brandOf(config = lastReadConfig(), baseUrl = configuredBaseUrl()): MailBrand {
  const path = logoPath(config.logo);
  return { name: config.platform_name, color: config.brand_color, logoUrl: path && baseUrl ? `${baseUrl}${path}` : null };
}

/** The placeholders every template may use; a domain may pass more. */
export type MailVariables = {
  recipient?: string;
  folder?: string;
  file?: string;
  link?: string;
  actor?: string;
  platform?: string;
  [name: string]: string | undefined;
};

/** A user's `language` (`auto`, `fr`, `en`, …) to the language of their mails; `auto` reads English. */
export function mailLanguage(language: string | null | undefined): MailLanguage {
  return isUiLanguage(language) ? language : "en";
}

export function renderMail(
  template: MailTemplate,
  variables: MailVariables,
  options: { language?: string | null; custom?: { object: string; content: string } | null; brand?: MailBrand; subject?: string | null } = {},
): RenderedMail {
  const source = options.custom
    ? { subject: options.custom.object, text: options.custom.content }
    : template[mailLanguage(options.language)];
  // A subject the sender wrote is taken as it is (never filled: its `{{…}}` stay text).
  const subject = (options.subject || fill(source.subject, variables)).replace(/[\r\n]+/g, " ").trim();
  const text = fill(source.text, variables);
  return { subject, text, html: htmlOf(subject, text, options.brand ?? brandOf()) };
}

/** `{{name}}` becomes the variable's value; unknown placeholders become empty. */
export function fill(template: string, variables: MailVariables): string {
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/gi, (_, name: string) => variables[name] ?? "");
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

function htmlOf(subject: string, text: string, brand: MailBrand): string {
  const paragraphs = text
    .trim()
    .split(/\n{2,}/)
    .map((p) => `<p>${linkify(escapeHtml(p)).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2328;max-width:40em">\n${headerOf(brand)}\n${paragraphs}\n</body></html>`;
}

// Mail clients drop <style> and CSS variables: inline styles only. The colour is a validated
// #rrggbb (brandColorSchema) and is checked again here, since it lands inside an attribute.
function headerOf(brand: MailBrand): string {
  const color = /^#[0-9a-f]{6}$/i.test(brand.color) ? brand.color : "#2f5bd3";
  const logo = brand.logoUrl ? `<img src="${escapeHtml(brand.logoUrl)}" alt="" height="32" style="height:32px;width:auto;vertical-align:middle;margin-right:10px;border:0">` : "";
  return `<div style="background:${color};color:${textOn(color)};padding:12px 16px;border-radius:8px;margin-bottom:16px;font-weight:600;font-size:17px">${logo}<span style="vertical-align:middle">${escapeHtml(brand.name)}</span></div>`;
}

function linkify(escaped: string): string {
  return escaped.replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}
