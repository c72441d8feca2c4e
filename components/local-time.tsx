"use client";

import { useSyncExternalStore } from "react";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage } from "@/lib/i18n/provider";

const noop = () => () => {};

/** A date in the reader's language and time zone; rendered only in the browser, whose zone the server does not know. */
export function LocalTime({ iso }: { iso: string }) {
  const language = useLanguage();
  const inBrowser = useSyncExternalStore(noop, () => true, () => false);
  const text = inBrowser ? new Intl.DateTimeFormat(htmlLang(language), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso)) : "";
  return <time dateTime={iso}>{text}</time>;
}
