"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { LocalTime } from "@/components/local-time";
import { PageHeader } from "@/components/page-header";
import { Card } from "@/components/ui/card";
import tables from "@/components/ui/table.module.css";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { linksAnalyticsQuery } from "@/lib/queries/engagement";
import { sharesQuery } from "@/lib/queries/sharing";
import styles from "./engagement.module.css";
import { VisitsChart } from "./visits-chart";
import { formatMs } from "./format";

/** /links/analytics: visits across all my links over 30 days, and each link's figures. */
export function LinksAnalyticsScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const summary = useQuery(linksAnalyticsQuery());
  const shares = useQuery(sharesQuery());
  const number = (n: number) => n.toLocaleString(locale);
  const back = (
    <Link href="/links" className={styles.back}>
      {t("engagement.backToLinks")}
    </Link>
  );
  if (summary.isPending)
    return (
      <div className={styles.screen}>
        {back}
        <p className={styles.muted}>{t("common.loading")}</p>
      </div>
    );
  if (summary.isError)
    return (
      <div className={styles.screen}>
        {back}
        <p role="alert">{t("error.generic")}</p>
      </div>
    );

  // The last 30 days only: older days of the summary are not this chart's question.
  // An unnamed link is called by what it shares, as on "My links".
  const what = new Map((shares.data ?? []).map((share) => [share.id, share.roots.map((r) => r.name).join(", ")]));
  const links = [...summary.data.links].sort((a, b) => b.visits - a.visits || (b.last_visit_at ?? "").localeCompare(a.last_visit_at ?? ""));
  return (
    <div className={styles.screen}>
      {back}
      <PageHeader title={t("engagement.summaryTitle")} subtitle={t("engagement.summarySubtitle")} />
      <Card title={t("engagement.last30")} description={t("engagement.overTimeHint")}>
        <VisitsChart title={t("engagement.last30")} daily={summary.data.daily} lastDays={30} />
      </Card>
      <Card title={t("engagement.linksTitle")}>
        {links.length === 0 ? (
          <p className={styles.muted}>{t("links.noShares")}</p>
        ) : (
          <div className={tables.tableWrap}>
            <table className={tables.table}>
              <caption className="visually-hidden">{t("engagement.linksTitle")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("engagement.link")}</th>
                  <th scope="col" className={tables.num}>
                    {t("engagement.visits")}
                  </th>
                  <th scope="col" className={tables.num}>
                    {t("engagement.uniqueVisitors")}
                  </th>
                  <th scope="col" className={tables.num}>
                    {t("engagement.time")}
                  </th>
                  <th scope="col">{t("engagement.lastVisit")}</th>
                </tr>
              </thead>
              <tbody>
                {links.map((link) => (
                  <tr key={link.share_id} data-testid="link-row">
                    <th scope="row">
                      <Link href={`/links/${link.share_id}/analytics`}>{link.name || what.get(link.share_id) || link.key}</Link>
                    </th>
                    <td className={tables.num}>{number(link.visits)}</td>
                    <td className={tables.num}>{number(link.visitors)}</td>
                    <td className={tables.num}>{formatMs(link.total_ms, locale)}</td>
                    <td className={styles.nowrap}>{link.last_visit_at ? <LocalTime iso={link.last_visit_at} /> : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
