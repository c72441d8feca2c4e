"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { jobsQuery, useDiscardJob, useRetryJob, type Job } from "@/lib/queries/admin-jobs";
import styles from "./admin.module.css";
import { Pager } from "./pager";
import { useAdminAction } from "./use-admin-action";
import { Tabs } from "./tabs";
import { QueryState } from "./query-state";

type View = "failed" | "pending,running" | "done";
const PAGE = 30;

/** /admin/jobs: the background queue (mails, previews, purges...): failed jobs with their error, queued ones; retry or discard. */
export function JobsScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const [view, setView] = useState<View>("failed");
  const [offset, setOffset] = useState(0);
  const list = useQuery(jobsQuery({ status: view, offset, limit: PAGE }));
  const retry = useRetryJob();
  const discard = useDiscardJob();

  const act = useAdminAction();

  const page = list.data;
  const canAct = (job: Job) => job.status === "failed" || job.status === "pending";
  return (
    <div className={styles.screen}>
      <PageHeader title={t("admin.jobs.title")} subtitle={t("admin.jobs.subtitle")} />
      <Tabs
        label={t("admin.jobs.views")}
        value={view}
        onChange={(v) => {
          setView(v);
          setOffset(0);
        }}
        options={[
          { value: "failed", label: t("admin.jobs.failed") },
          { value: "pending,running", label: t("admin.jobs.queued") },
          { value: "done", label: t("admin.jobs.done") },
        ]}
      />
      <QueryState query={list} />
      {page && page.objects.length === 0 && <p className={styles.stateBox}>{t(view === "failed" ? "admin.jobs.noFailed" : "admin.jobs.none")}</p>}
      {page && page.objects.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label={t("admin.jobs.title")}>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{t("admin.jobs.kind")}</th>
                <th scope="col">{t("admin.jobs.state")}</th>
                <th scope="col" className={styles.num}>
                  {t("admin.jobs.attempts")}
                </th>
                <th scope="col">{view === "failed" || view === "done" ? t("admin.jobs.finished") : t("admin.jobs.runAt")}</th>
                <th scope="col">{t("admin.jobs.error")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("admin.mail.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.objects.map((job) => (
                <tr key={job.id}>
                  <td className={styles.num}>{job.id}</td>
                  <td className={styles.wrap}>
                    {job.kind}
                    <div className={styles.muted}>{JSON.stringify(job.payload)}</div>
                  </td>
                  <td>
                    <span className={job.status === "failed" ? styles.badgeDanger : job.status === "done" ? styles.badgeOk : styles.badge}>{t(`admin.jobs.status.${job.status}`)}</span>
                  </td>
                  <td className={styles.num}>
                    {job.attempts} / {job.max_attempts}
                  </td>
                  <td className={styles.nowrap}>{formatDate(job.finished_at ?? job.run_at, locale)}</td>
                  {/* A job that succeeded after a failed attempt keeps that attempt's error: shown, but not in red. */}
                  <td className={job.status === "done" ? `${styles.muted} ${styles.wrap}` : styles.error}>{job.last_error ?? ""}</td>
                  <td>
                    {canAct(job) && (
                      <span className={styles.actions}>
                        <Button size="small" variant="secondary" aria-label={t("admin.jobs.retryNamed", { id: job.id })} onClick={() => act(retry.mutateAsync(job.id), t("admin.jobs.retried", { id: job.id }))}>
                          {job.status === "failed" ? t("admin.jobs.retry") : t("admin.jobs.runNow")}
                        </Button>
                        <Button size="small" variant="ghost" aria-label={t("admin.jobs.discardNamed", { id: job.id })} onClick={() => act(discard.mutateAsync(job.id), t("admin.jobs.discarded", { id: job.id }))}>
                          {t("admin.jobs.discard")}
                        </Button>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && <Pager offset={offset} limit={PAGE} total={page.nb_total_objects} onChange={setOffset} />}
    </div>
  );
}
