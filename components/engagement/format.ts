/** Figures of the owner's analytics in the reader's language. */

const unit = (locale: string, name: "hour" | "minute" | "second", value: number) =>
  new Intl.NumberFormat(locale, { style: "unit", unit: name, unitDisplay: "short" }).format(value);

/** 3,725,000 ms → "1 hr 2 min" (en), "1 h 2 min" (fr); under an hour "2 min 5 s"; under a minute "40 s". */
export function formatMs(ms: number, locale: string): string {
  const total = Math.round(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return m > 0 ? `${unit(locale, "hour", h)} ${unit(locale, "minute", m)}` : unit(locale, "hour", h);
  if (m > 0) return s > 0 ? `${unit(locale, "minute", m)} ${unit(locale, "second", s)}` : unit(locale, "minute", m);
  return unit(locale, "second", s);
}

/** 0.666 → "67 %" in French, "67%" in English. */
export const formatPercent = (ratio: number, locale: string) => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(Math.min(1, Math.max(0, ratio)));

/** A UTC day ("2026-11-27") as "Nov 27". */
export const formatDayLabel = (day: string, locale: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(locale, { month: "short", day: "numeric", timeZone: "UTC" });

const DAY_MS = 86_400_000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * The days a chart draws: at least the last `span` days up to today (UTC), from the first day with
 * a visit when that is earlier; days without a visit are zeros (the API lists only days with one).
 */
export function fillDays(daily: { date: string; visits: number; visitors: number }[], span = 30, now = Date.now()) {
  const today = Date.parse(`${isoDay(now)}T00:00:00Z`);
  const first = Math.min(today - (span - 1) * DAY_MS, ...daily.map((d) => Date.parse(`${d.date}T00:00:00Z`)).filter(Number.isFinite));
  const byDay = new Map(daily.map((d) => [d.date, d]));
  const days: { date: string; visits: number; visitors: number }[] = [];
  for (let time = first; time <= today; time += DAY_MS) {
    const date = isoDay(time);
    const known = byDay.get(date);
    days.push({ date, visits: known?.visits ?? 0, visitors: known?.visitors ?? 0 });
  }
  return days;
}
