"use client";

import { createContext, useContext, useEffect, useMemo, type ReactNode } from "react";
import { htmlLang, type UiLanguage } from "./languages";
import { createTranslator, type Translate } from "./translate";

type I18n = { language: UiLanguage; t: Translate };

const I18nContext = createContext<I18n | null>(null);

/**
 * Provides `t` for one language. Nested providers override the outer one: the signed-in shell
 * wraps its pages in the user's own language, which changes as soon as the account is saved.
 */
export function I18nProvider({ language, children }: { language: UiLanguage; children: ReactNode }) {
  const value = useMemo(() => ({ language, t: createTranslator(language) }), [language]);
  useEffect(() => {
    document.documentElement.lang = htmlLang(language);
  }, [language]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useT() needs an <I18nProvider> above it");
  return i18n;
}

export const useT = (): Translate => useI18n().t;
export const useLanguage = (): UiLanguage => useI18n().language;
