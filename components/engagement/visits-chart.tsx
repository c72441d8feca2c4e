"use client";

import { TimeChart } from "@/components/ui/charts";
import type { ShareAnalyticsJson } from "@/lib/contracts/engagement";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { fillDays, formatDayLabel } from "./format";

export const VISITS_COLOR = "#2f5bd3";
export const VISITORS_COLOR = "#17794a";

/** Visits and unique visitors per day (zeros filled, at least the last 30 days; only the last `lastDays` when given), as bars with their table. */
export function VisitsChart({ title, daily, lastDays }: { title: string; daily: ShareAnalyticsJson["daily"]; lastDays?: number }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const filled = fillDays(daily);
  const days = lastDays ? filled.slice(-lastDays) : filled;
  return (
    <TimeChart
      kind="bars"
      title={title}
      labels={days.map((d) => formatDayLabel(d.date, locale))}
      series={[
        { name: t("engagement.visits"), color: VISITS_COLOR, values: days.map((d) => d.visits) },
        { name: t("engagement.uniqueVisitors"), color: VISITORS_COLOR, values: days.map((d) => d.visitors) },
      ]}
      scale="count"
      format={(n: number) => n.toLocaleString(locale)}
    />
  );
}
