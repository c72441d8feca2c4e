import { cn } from "./catalogues/cn";
import { de } from "./catalogues/de";
import { en, type MessageKey } from "./catalogues/en";
import { es } from "./catalogues/es";
import { fr } from "./catalogues/fr";
import { it } from "./catalogues/it";
import { pt } from "./catalogues/pt";
import type { UiLanguage } from "./languages";

export type { MessageKey };
export type Vars = Record<string, string | number>;
export type Translate = (key: MessageKey, vars?: Vars) => string;

const CATALOGUES: Record<UiLanguage, Partial<Record<MessageKey, string>>> = { en, fr, es, pt, cn, de, it };

/** A `t(key, vars)` for one language; `{name}` placeholders are replaced, missing keys fall back to English. */
export function createTranslator(language: UiLanguage): Translate {
  const catalogue = CATALOGUES[language];
  return (key, vars) => {
    const template = catalogue[key] ?? en[key];
    if (!vars) return template;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
  };
}
