"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { PageHeader } from "@/components/page-header";
import buttons from "@/components/ui/button.module.css";
import { Card } from "@/components/ui/card";
import { ApiError } from "@/lib/api-client";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { analyticsExportUrl, analyticsShareQuery, shareAnalyticsQuery, type ShareAnalyticsJson } from "@/lib/queries/engagement";
import styles from "./engagement.module.css";
import { VisitsChart } from "./visits-chart";
import { formatMs } from "./format";
import { PagesChart } from "./pages-chart";
import { VisitorsTable } from "./visitors-table";


/** /links/(id)/analytics: who opened one link, when, which pages and for how long (issue 30). */
export function AnalyticsScreen({ shareId }: { shareId: number }) {
  const t = useT();
  const share = useQuery(analyticsShareQuery(shareId));
  const analytics = useQuery(shareAnalyticsQuery(shareId));
  const back = (
    <Link href="/links" className={styles.back}>
      {t("engagement.backToLinks")}
    </Link>
  );

  const failure = share.error ?? analytics.error;
  if (failure) {
    const missing = failure instanceof ApiError && (failure.status === 404 || failure.status === 403);
    return (
      <div className={styles.screen}>
        {back}
        <PageHeader title={t(missing ? "engagement.notFoundTitle" : "engagement.title")} />
        <div className={styles.stateBox} role="alert">
          <p>{t(missing ? "engagement.notFound" : "error.generic")}</p>
          {!missing && (
            <button type="button" className={`${buttons.button} ${buttons.secondary}`} onClick={() => void Promise.all([share.refetch(), analytics.refetch()])}>
              {t("error.retry")}
            </button>
          )}
        </div>
      </div>
    );
  }
  if (!share.data || !analytics.data)
    return (
      <div className={styles.screen}>
        {back}
        <p className={styles.muted}>{t("common.loading")}</p>
      </div>
    );

  const name = share.data.name || share.data.roots.map((r) => r.name).join(", ");
  const documents = new Map(share.data.roots.filter((r) => r.is_file).map((r) => [r.id, r.name]));
  const data = analytics.data;
  return (
    <div className={styles.screen}>
      {back}
      <div className={styles.top}>
        <PageHeader title={name} subtitle={t("engagement.subtitle")} />
        {data.visits > 0 && (
          <a className={`${buttons.button} ${buttons.secondary}`} href={analyticsExportUrl(shareId)} download>
            {t("engagement.exportCsv")}
          </a>
        )}
      </div>
      {data.visits === 0 && data.visitors_list.length === 0 ? (
        <div className={styles.stateBox}>
          <p>{t("engagement.empty")}</p>
          <p>{t("engagement.emptyHint")}</p>
        </div>
      ) : (
        <Report shareId={shareId} data={data} documents={documents} />
      )}
    </div>
  );
}

function Report({ shareId, data, documents }: { shareId: number; data: ShareAnalyticsJson; documents: Map<number, string> }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const number = (n: number) => n.toLocaleString(locale);
  const figures = [
    ["engagement.visits", number(data.visits)],
    ["engagement.uniqueVisitors", number(data.visitors)],
    ["engagement.downloads", number(data.downloads)],
    ["engagement.totalTime", formatMs(data.total_ms, locale)],
  ] as const;
  return (
    <>
      <dl className={styles.figures} aria-label={t("engagement.keyFigures")}>
        {figures.map(([label, value]) => (
          <div key={label} className={styles.figure}>
            <dt>{t(label)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className={styles.grid2}>
        <Card title={t("engagement.overTime")} description={t("engagement.overTimeHint")}>
          <VisitsChart title={t("engagement.overTime")} daily={data.daily} />
        </Card>
        <PagesChart pages={data.pages} documents={documents} />
      </div>
      <VisitorsTable shareId={shareId} visitors={data.visitors_list} />
    </>
  );
}
