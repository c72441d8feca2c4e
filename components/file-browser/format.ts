import { ApiError } from "@/lib/api-client";
import type { Translate } from "@/lib/i18n/translate";
import type { Item } from "@/lib/queries/files";

const UNITS = ["B", "KB", "MB", "GB", "TB"];
/** French counts octets: 1,5 Go (issue 32). */
const FRENCH_UNITS = ["o", "Ko", "Mo", "Go", "To"];

/** 1,536 → "1.5 KB", "1,5 Ko" in French (powers of 1024, as file managers show them). */
export function formatBytes(bytes: number, locale?: string): string {
  const units = locale?.toLowerCase().startsWith("fr") ? FRENCH_UNITS : UNITS;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toLocaleString(locale, { maximumFractionDigits: digits })} ${units[unit]}`;
}

/** Seconds as "2 min 5 s" / "40 s". */
export function formatDuration(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function formatDate(iso: string | null | undefined, locale?: string): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

/** The day only ("Nov 26" this year, else "Nov 26, 2025"): for narrow columns. */
export function formatDay(iso: string | null | undefined, locale?: string): string {
  if (!iso) return "—";
  const date = new Date(iso);
  const isThisYear = date.getFullYear() === new Date().getFullYear();
  return date.toLocaleDateString(locale, isThisYear ? { month: "short", day: "numeric" } : { dateStyle: "medium" });
}

/** A row's identity: a file by its GUID, which outlives its versions (its `id` is the current version's). */
export const itemKey = (item: Item) => (item.kind === "file" ? `file:${item.guid}` : `folder:${item.id}`);

/** A failed file operation in plain words. */
export function describeFileError(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t("error.generic");
  if (error.status === 0) return t("error.network");
  if (error.status === 409) return t("files.nameTaken");
  if (error.status === 400 && error.code === "invalid_name") return t("files.nameInvalid");
  if (error.status === 403 || error.status === 404) return t("error.forbidden");
  if (error.status === 423) return t("files.lockedError");
  if (error.status === 507) return t("uploads.quota");
  return error.message || t("error.generic");
}
