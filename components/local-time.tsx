"use client";

import { useSyncExternalStore } from "react";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage } from "@/lib/i18n/provider";

const noop = () => () => {};

/** A date in the reader's language and time zone; rendered only in the browser, whose zone the server does not know. */
export function LocalTime({ iso, timeOnly = false }: { iso: string; timeOnly?: boolean }) {
  const language = useLanguage();
  const inBrowser = useSyncExternalStore(noop, () => true, () => false);
  const format: Intl.DateTimeFormatOptions = timeOnly ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" };
  const text = inBrowser ? new Intl.DateTimeFormat(htmlLang(language), format).format(new Date(iso)) : "";
  return <time dateTime={iso}>{text}</time>;
}
