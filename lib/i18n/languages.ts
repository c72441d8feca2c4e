/** Interface languages, with the contract's codes (`cn` is Chinese). `auto` follows the browser. */
export const UI_LANGUAGES = ["en", "fr", "es", "pt", "cn", "de", "it"] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: UiLanguage = "en";

/** Each language named in itself, as language pickers customarily show them. */
export const LANGUAGE_ENDONYMS: Record<UiLanguage, string> = {
  en: "English",
  fr: "Français",
  es: "Español",
  pt: "Português",
  cn: "中文",
  de: "Deutsch",
  it: "Italiano",
};

/** BCP 47 tag for <html lang>. */
export const htmlLang = (language: UiLanguage) => (language === "cn" ? "zh-CN" : language);

export const isUiLanguage = (value: unknown): value is UiLanguage => UI_LANGUAGES.includes(value as UiLanguage);

/** The first supported language among browser tags ("fr-CA", "zh-Hans"...), or English. */
export function matchLanguage(tags: readonly string[]): UiLanguage {
  for (const tag of tags) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    const code = primary === "zh" ? "cn" : primary;
    if (isUiLanguage(code)) return code;
  }
  return DEFAULT_LANGUAGE;
}

/** Tags of an Accept-Language header, most preferred first. */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.tag && entry.tag !== "*" && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/** A user's `language` setting resolved to an interface language; `auto` uses the browser's tags. */
export function resolveLanguage(setting: string | null | undefined, browserTags: readonly string[]): UiLanguage {
  return isUiLanguage(setting) ? setting : matchLanguage(browserTags);
}
