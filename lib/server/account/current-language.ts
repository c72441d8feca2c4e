import "server-only";
// Interface languages and the Accept-Language tags that select them (the contract writes Chinese `cn`).
const BY_TAG: Record<string, string> = { en: "en", fr: "fr", es: "es", pt: "pt", zh: "cn", cn: "cn", de: "de", it: "it" };
const FALLBACK = "en";

/** The language the interface uses now: the account's own, or for `auto` the browser's best match. */
export function currentLanguage(language: string, acceptLanguage: string | null): string {
  if (language !== "auto") return language;
  return bestMatch(acceptLanguage) ?? FALLBACK;
}

function bestMatch(header: string | null): string | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim().match(/^q=([\d.]+)$/i)?.[1]).find(Boolean);
      return { primary: tag.trim().toLowerCase().split("-")[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((t) => t.primary && Number.isFinite(t.q) && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((t) => BY_TAG[t.primary]).find(Boolean);
}
