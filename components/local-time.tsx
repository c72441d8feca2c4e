"use client";

import { useSyncExternalStore } from "react";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage } from "@/lib/i18n/provider";

const noop = () => () => {};

/** A date in the reader's language and time zone; rendered only in the browser, whose zone the server does not know. */
const FORMATS: Record<"full" | "short" | "time", Intl.DateTimeFormatOptions> = {
  full: { dateStyle: "medium", timeStyle: "short" },
  /** For narrow columns: 11/27/26, 10:12 PM. */
  short: { dateStyle: "short", timeStyle: "short" },
  time: { timeStyle: "short" },
};

export function LocalTime({ iso, format = "full" }: { iso: string; format?: keyof typeof FORMATS }) {
  const language = useLanguage();
  const inBrowser = useSyncExternalStore(noop, () => true, () => false);
  const text = inBrowser ? new Intl.DateTimeFormat(htmlLang(language), FORMATS[format]).format(new Date(iso)) : "";
  return <time dateTime={iso}>{text}</time>;
}
