"use client";

import { useState } from "react";
import { LocalTime } from "@/components/local-time";
import { Card } from "@/components/ui/card";
import tables from "@/components/ui/table.module.css";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import type { AnalyticsVisitor } from "@/lib/queries/engagement";
import styles from "./engagement.module.css";
import { formatMs, formatPercent } from "./format";
import { VisitTimeline } from "./visit-timeline";

type SortKey = "ms" | "last_at";
type Sort = { key: SortKey; descending: boolean };

const compare = (a: AnalyticsVisitor, b: AnalyticsVisitor, key: SortKey) => (key === "ms" ? a.ms - b.ms : Date.parse(a.last_at) - Date.parse(b.last_at));

/** Each visitor of a link: what they read and when; sorted by time or last visit; a visitor opens their timeline. */
export function VisitorsTable({ shareId, visitors }: { shareId: number; visitors: AnalyticsVisitor[] }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const [sort, setSort] = useState<Sort>({ key: "last_at", descending: true });
  const [open, setOpen] = useState<AnalyticsVisitor | null>(null);
  const rows = [...visitors].sort((a, b) => (sort.descending ? -1 : 1) * compare(a, b, sort.key) || a.visitor_id - b.visitor_id);
  const number = (n: number) => n.toLocaleString(locale);

  const sortHeader = (sortKey: SortKey, label: MessageKey) => {
    const active = sort.key === sortKey;
    return (
      <th scope="col" className={sortKey === "ms" ? tables.num : styles.when} aria-sort={active ? (sort.descending ? "descending" : "ascending") : undefined}>
        <button type="button" className={styles.sort} onClick={() => setSort({ key: sortKey, descending: active ? !sort.descending : true })}>
          {t(label)}
          <span aria-hidden="true">{active ? (sort.descending ? "↓" : "↑") : "↕"}</span>
        </button>
      </th>
    );
  };

  return (
    <Card title={t("engagement.visitorsTitle")} description={t("engagement.visitorsHint")}>
      <div className={`${tables.tableWrap} ${styles.stickyFirst}`}>
        <table className={tables.table}>
          <caption className="visually-hidden">{t("engagement.visitorsTitle")}</caption>
          <thead>
            <tr>
              <th scope="col" className={styles.who}>
                {t("engagement.visitor")}
              </th>
              <th scope="col" className={tables.num}>
                {t("engagement.visits")}
              </th>
              <th scope="col" className={tables.num}>
                {t("engagement.pagesSeen")}
              </th>
              {sortHeader("ms", "engagement.time")}
              <th scope="col" className={tables.num}>
                {t("engagement.completion")}
              </th>
              <th scope="col" className={tables.num}>
                {t("engagement.downloads")}
              </th>
              <th scope="col">{t("engagement.agreement")}</th>
              <th scope="col">{t("engagement.firstVisit")}</th>
              {sortHeader("last_at", "engagement.lastVisit")}
            </tr>
          </thead>
          <tbody>
            {rows.map((v) => (
              <tr key={v.visitor_id} data-testid="visitor-row">
                <th scope="row" className={styles.who}>
                  <button type="button" className={`${styles.visitor} ${v.email ? "" : styles.anonymous}`} onClick={() => setOpen(v)} aria-haspopup="dialog">
                    {v.email ?? t("engagement.anonymous")}
                  </button>
                </th>
                <td className={tables.num}>{number(v.visits)}</td>
                <td className={tables.num}>{number(v.pages_seen)}</td>
                <td className={tables.num}>{formatMs(v.ms, locale)}</td>
                <td className={tables.num}>
                  <span className={styles.completion}>
                    {formatPercent(v.completion, locale)}
                    <span className={styles.meter} aria-hidden="true">
                      <span className={styles.meterFill} style={{ width: `${Math.round(Math.min(1, Math.max(0, v.completion)) * 100)}%` }} />
                    </span>
                  </span>
                </td>
                <td className={tables.num}>{number(v.downloads)}</td>
                <td className={styles.when}>{v.agreement_at ? <LocalTime iso={v.agreement_at} format="short" /> : "—"}</td>
                <td className={styles.when}>
                  <LocalTime iso={v.first_at} format="short" />
                </td>
                <td className={styles.when}>
                  <LocalTime iso={v.last_at} format="short" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {open && <VisitTimeline shareId={shareId} visitor={open} onClose={() => setOpen(null)} />}
    </Card>
  );
}
