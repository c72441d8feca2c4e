import type { TextLanguage } from "@/db/schema";

/**
 * The most frequent short words of each language with a stemming configuration in PostgreSQL
 * (and a catalogue here). Words shared by several languages ("a", "de", "la", "que", "e") are
 * left out (a word met in two lists counts for the first): a count of them decides.
 */
const STOP_WORDS: Record<Exclude<TextLanguage, "simple">, string[]> = {
  english: ["the", "and", "of", "to", "is", "that", "it", "for", "with", "are", "this", "be", "by", "have", "from", "or", "which", "not", "at", "you", "we", "will", "they", "has", "been", "were"],
  french: ["le", "les", "et", "est", "une", "du", "dans", "pour", "qui", "sur", "au", "avec", "pas", "sont", "ce", "cette", "aux", "nous", "vous", "mais", "été", "être", "leur", "ses", "ont", "sa"],
  german: ["der", "die", "und", "ist", "nicht", "ein", "eine", "zu", "den", "mit", "sich", "auf", "für", "im", "dem", "auch", "wird", "von", "sie", "wir", "bei", "oder", "aus", "werden", "sind", "ich"],
  spanish: ["el", "los", "las", "y", "pero", "sus", "más", "fue", "muy", "también", "hay", "ya", "puede", "todos", "cuando", "ese", "han", "ni", "esto", "había", "tiene", "hasta"],
  italian: ["di", "che", "è", "per", "della", "non", "sono", "gli", "nel", "alla", "questo", "anche", "dei", "delle", "più", "essere", "tra", "suo", "nella", "degli", "ed", "hanno", "questa", "sul", "dalla", "loro"],
  portuguese: ["os", "do", "não", "em", "uma", "na", "nas", "ao", "foi", "são", "pelo", "pela", "seu", "sua", "também", "muito", "já", "às", "isso", "ele", "ela", "tem", "seus", "pelos"],
};

const LOOKUP = new Map<string, Exclude<TextLanguage, "simple">>();
for (const [language, words] of Object.entries(STOP_WORDS) as [Exclude<TextLanguage, "simple">, string[]][]) {
  for (const word of words) if (!LOOKUP.has(word)) LOOKUP.set(word, language);
}

/** Enough evidence: fewer stop words than this, or a margin this thin, and the fallback decides. */
const MIN_HITS = 3;
const SAMPLE_CHARS = 200_000;

/**
 * The text search configuration of a text: the language whose stop words it holds most often
 * (in its first 200,000 characters), with a clear lead; otherwise `fallback` (the owner's
 * language). Chinese, Japanese and Korean text has no stemming configuration: 'simple'.
 */
export function detectLanguage(text: string, fallback: TextLanguage): TextLanguage {
  const sample = text.slice(0, SAMPLE_CHARS);
  const cjk = sample.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g)?.length ?? 0;
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  if (letters > 0 && cjk / letters > 0.3) return "simple";
  const counts = new Map<TextLanguage, number>();
  for (const word of sample.toLowerCase().match(/\p{L}+/gu) ?? []) {
    const language = LOOKUP.get(word);
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (!best || best[1] < MIN_HITS || (second && best[1] < second[1] * 1.5)) return fallback;
  return best[0];
}

/** The interface language of an account (users.language) to a text search configuration. */
const BY_UI_LANGUAGE: Record<string, TextLanguage> = { en: "english", fr: "french", de: "german", es: "spanish", it: "italian", pt: "portuguese", cn: "simple" };

export function configurationOf(uiLanguage: string | null | undefined): TextLanguage {
  return BY_UI_LANGUAGE[uiLanguage ?? ""] ?? "simple";
}

/** The interface language of an account to Tesseract's language code. */
const TESSERACT: Record<string, string> = { en: "eng", fr: "fra", de: "deu", es: "spa", it: "ita", pt: "por", cn: "chi_sim" };

/**
 * Tesseract's languages for a scan, best first: the owner's, then the platform's (English, the
 * interface's default); "fra+eng". Each language added costs time, so no more than these.
 */
export function tesseractLanguages(ownerLanguage: string | null | undefined, installed: ReadonlySet<string>): string {
  const wanted = [TESSERACT[ownerLanguage ?? ""], "eng"].filter((code): code is string => Boolean(code) && installed.has(code));
  return [...new Set(wanted)].join("+");
}
