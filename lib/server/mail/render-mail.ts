/**
 * Mail templates: a subject and a text body per language with `{{placeholder}}`s. Each domain
 * declares its own templates next to its operations (see `MailTemplate`) and renders them here;
 * the HTML part is made from the same text, escaped, with addresses turned into links, so the two
 * parts never say different things. Administrators' custom alert mails (EM_TE_ALERT) go through
 * the same substitution.
 */
export type MailLanguage = "en" | "fr";

export type MailTemplate = Record<MailLanguage, { subject: string; text: string }>;

export type RenderedMail = { subject: string; text: string; html: string };

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

/** A user's `language` (`auto`, `fr`, `en`, …) to the language of their mails. */
export function mailLanguage(language: string | null | undefined): MailLanguage {
  return language === "fr" ? "fr" : "en";
}

export function renderMail(
  template: MailTemplate,
  variables: MailVariables,
  options: { language?: string | null; custom?: { object: string; content: string } | null } = {},
): RenderedMail {
  const source = options.custom
    ? { subject: options.custom.object, text: options.custom.content }
    : template[mailLanguage(options.language)];
  const subject = fill(source.subject, variables).replace(/[\r\n]+/g, " ").trim();
  const text = fill(source.text, variables);
  return { subject, text, html: htmlOf(subject, text) };
}

/** `{{name}}` becomes the variable's value; unknown placeholders become empty. */
export function fill(template: string, variables: MailVariables): string {
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/gi, (_, name: string) => variables[name] ?? "");
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

function htmlOf(subject: string, text: string): string {
  const paragraphs = text
    .trim()
    .split(/\n{2,}/)
    .map((p) => `<p>${linkify(escapeHtml(p)).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2328;max-width:40em">\n${paragraphs}\n</body></html>`;
}

function linkify(escaped: string): string {
  return escaped.replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}
