"use client";

import { useState } from "react";
import { Card } from "@/components/ui/card";
import { BarChart } from "@/components/ui/charts";
import { Select } from "@/components/ui/select";
import type { ShareAnalyticsJson } from "@/lib/contracts/engagement";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import styles from "./engagement.module.css";
import { formatMs } from "./format";

type Metric = "median" | "views";
const COLOR = "#2f5bd3";

/**
 * Where readers stop: one bar per page of a document (its median time, or its views), from page 1
 * to the last page anyone reached, so pages nobody read show as gaps. A link with several
 * documents picks one.
 */
export function PagesChart({ pages, documents }: { pages: ShareAnalyticsJson["pages"]; documents: Map<number, string> }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const fileIds = [...new Set(pages.map((p) => p.file_id))];
  const [picked, setPicked] = useState<number | null>(null);
  const [metric, setMetric] = useState<Metric>("median");
  const fileId = picked !== null && fileIds.includes(picked) ? picked : fileIds[0];
  const documentName = (id: number) => documents.get(id) ?? t("engagement.documentN", { id });

  const mine = pages.filter((p) => p.file_id === fileId);
  const last = Math.max(0, ...mine.map((p) => p.page));
  const byPage = new Map(mine.map((p) => [p.page, p]));
  const numbers = Array.from({ length: last }, (_, i) => i + 1);
  const seconds = (ms: number) => Math.round(ms / 1000);
  const values = numbers.map((n) => (metric === "views" ? (byPage.get(n)?.views ?? 0) : seconds(byPage.get(n)?.ms_median ?? 0)));
  const title = fileId === undefined ? t("engagement.pagesTitle") : t(metric === "views" ? "engagement.pagesViewsOf" : "engagement.pagesMedianOf", { name: documentName(fileId) });

  return (
    <Card title={t("engagement.pagesTitle")} description={t("engagement.pagesHint")}>
      {fileIds.length === 0 ? (
        <p className={styles.muted}>{t("engagement.noPages")}</p>
      ) : (
        <>
          <div className={styles.controls}>
            {fileIds.length > 1 && (
              <Select
                label={t("engagement.document")}
                value={String(fileId)}
                onChange={(e) => setPicked(Number(e.target.value))}
                options={fileIds.map((id) => ({ value: String(id), label: documentName(id) }))}
              />
            )}
            <div className={styles.toggle} role="group" aria-label={t("engagement.measure")}>
              <button type="button" aria-pressed={metric === "median"} onClick={() => setMetric("median")}>
                {t("engagement.medianTime")}
              </button>
              <button type="button" aria-pressed={metric === "views"} onClick={() => setMetric("views")}>
                {t("engagement.views")}
              </button>
            </div>
          </div>
          <BarChart
            title={title}
            labelHeading={t("engagement.page")}
            labels={numbers.map(String)}
            series={[{ name: t(metric === "views" ? "engagement.views" : "engagement.medianTime"), color: COLOR, values }]}
            scale={metric === "views" ? "count" : "seconds"}
            format={metric === "views" ? (n) => n.toLocaleString(locale) : (n) => formatMs(n * 1000, locale)}
          />
        </>
      )}
    </Card>
  );
}
