"use client";

import { useQuery } from "@tanstack/react-query";
import { LocalTime } from "@/components/local-time";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { visitorTimelineQuery, type AnalyticsVisitor } from "@/lib/queries/engagement";
import styles from "./engagement.module.css";
import { formatMs } from "./format";

/** One visitor's visits in the order they came, as the API gives them: the document, when, and the pages in the order read. */
export function VisitTimeline({ shareId, visitor, onClose }: { shareId: number; visitor: AnalyticsVisitor; onClose: () => void }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const timeline = useQuery(visitorTimelineQuery(shareId, visitor.visitor_id));
  const who = visitor.email ?? t("engagement.anonymous");
  return (
    <Dialog
      title={t("engagement.timelineTitle", { visitor: who })}
      closeLabel={t("common.close")}
      onClose={onClose}
      wide
      footer={
        <Button variant="secondary" onClick={onClose} data-autofocus>
          {t("common.close")}
        </Button>
      }
    >
      {timeline.isPending && <p className={styles.muted}>{t("common.loading")}</p>}
      {timeline.isError && <p role="alert">{t("error.generic")}</p>}
      {timeline.data && timeline.data.visits.length === 0 && <p className={styles.muted}>{t("engagement.noVisits")}</p>}
      {timeline.data && timeline.data.visits.length > 0 && (
        <ol className={styles.visits}>
          {timeline.data.visits.map((visit) => (
            <li key={visit.visit_id} className={styles.visit} data-testid="timeline-visit">
              <h3>{visit.file_name}</h3>
              <p className={styles.muted}>
                {t("engagement.visitStarted")} <LocalTime iso={visit.started_at} /> · {t("engagement.visitTotal", { time: formatMs(visit.ms, locale) })}
              </p>
              {visit.events.length === 0 ? (
                <p className={styles.muted}>{t("engagement.noPageTime")}</p>
              ) : (
                <ol className={styles.events}>
                  {visit.events.map((event, i) => (
                    <li key={`${event.at}-${i}`}>
                      {t("engagement.pageTime", { page: event.page, time: formatMs(event.ms, locale) })} · <LocalTime iso={event.at} format="time" />
                    </li>
                  ))}
                </ol>
              )}
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}
