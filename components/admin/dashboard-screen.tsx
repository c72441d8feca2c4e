"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatBytes, formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TimeChart } from "@/components/ui/charts";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { jobsQuery } from "@/lib/queries/admin-jobs";
import { emailsQuery } from "@/lib/queries/admin-mail";
import { STORAGE_TYPES, type StorageByType } from "@/lib/contracts/stats";
import { statsQuery } from "@/lib/queries/admin-stats";
import styles from "./admin.module.css";

const STORAGE = "#2f5bd3";
const UPLOADS = "#2f5bd3";
const DOWNLOADS = "#17794a";
const SIGNATURES = "#8a4fd1";
const VALIDATIONS = "#c26a12";
// Today's figures are live on the server: the open dashboard asks again every minute.
const REFRESH_MS = 60_000;

/** /admin: storage and its history, activity per day, the heaviest users, and what needs a look. */
export function DashboardScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const stats = useQuery({ ...statsQuery(), refetchInterval: REFRESH_MS });
  const failedJobs = useQuery(jobsQuery({ status: "failed", offset: 0, limit: 5 }));
  const outbox = useQuery(emailsQuery("EM_TE_TOSEND", 0, 100));
  const bytes = (n: number) => formatBytes(n, locale);
  const number = (n: number) => n.toLocaleString(locale);

  if (stats.isPending) return <p className={styles.state}>{t("common.loading")}</p>;
  if (stats.isError)
    return (
      <div className={styles.stateBox} role="alert">
        <p>{t("admin.dashboard.error")}</p>
        <Button onClick={() => stats.refetch()}>{t("error.retry")}</Button>
      </div>
    );

  const s = stats.data;
  const main = s.storage?.main;
  const days = s.stats?.days ?? [];
  const today = days.at(-1);
  const dayLabel = (d: string) => new Date(`${d}T00:00:00Z`).toLocaleDateString(locale, { month: "short", day: "numeric", timeZone: "UTC" });
  const labels = days.map((d) => dayLabel(d.date));
  const failedMails = (outbox.data?.objects ?? []).filter((m) => m.last_error);

  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={t("admin.dashboard.title")} subtitle={t("admin.dashboard.subtitle")} />
        <span className={styles.muted}>{t("admin.dashboard.asOf", { date: formatDate(new Date(stats.dataUpdatedAt).toISOString(), locale) })}</span>
      </div>

      <section className={styles.figures} aria-label={t("admin.dashboard.figures")}>
        {main && (
          <div className={styles.figure}>
            <span className={styles.figureLabel}>{t("admin.dashboard.used")}</span>
            <span className={styles.figureValue}>{bytes(main.used)}</span>
            {main.percent === null || main.free === null ? (
              <span className={styles.muted}>{t("admin.dashboard.capacityUnknown")}</span>
            ) : (
              <>
                <span className={styles.muted}>{t(main.quota === null ? "admin.dashboard.ofDisk" : "admin.dashboard.ofQuota", { percent: main.percent, total: bytes(main.quota ?? main.used + main.free) })}</span>
                <div className={styles.meter} role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={main.percent} aria-label={t("admin.dashboard.used")}>
                  <div className={styles.meterFill} style={{ width: `${Math.min(100, main.percent)}%` }} />
                </div>
              </>
            )}
          </div>
        )}
        {main && (
          <div className={styles.figure}>
            <span className={styles.figureLabel}>{t("admin.dashboard.free")}</span>
            <span className={styles.figureValue}>{main.free === null ? "—" : bytes(main.free)}</span>
          </div>
        )}
        <div className={styles.figure}>
          <span className={styles.figureLabel}>{t("admin.dashboard.activeToday")}</span>
          <span className={styles.figureValue}>{number(today?.active_users ?? 0)}</span>
          <span className={styles.muted}>{t("admin.dashboard.active30", { count: number(s.stats?.active_users_30d ?? 0) })}</span>
        </div>
        <div className={styles.figure}>
          <span className={styles.figureLabel}>{t("admin.dashboard.seats")}</span>
          <span className={styles.figureValue}>{number(s.slots?.used ?? 0)}</span>
          <span className={styles.muted}>{t("admin.dashboard.versions", { count: number(s.storage?.versions?.count ?? 0), size: bytes(s.storage?.versions?.size ?? 0) })}</span>
        </div>
      </section>

      <section className={styles.figures} aria-label={t("admin.dashboard.todayFigures")}>
        {(
          [
            ["admin.dashboard.uploadsToday", today?.uploads],
            ["admin.dashboard.downloadsToday", today?.downloads],
            ["admin.dashboard.signaturesToday", today?.signatures],
            ["admin.dashboard.validationsToday", today?.validations],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className={styles.figure}>
            <span className={styles.figureLabel}>{t(label)}</span>
            <span className={styles.figureValue}>{number(value ?? 0)}</span>
          </div>
        ))}
      </section>

      <div className={styles.grid2}>
        <Card title={t("admin.dashboard.storageChart")} description={t("admin.dashboard.storageChartLive")}>
          <TimeChart
            kind="area"
            title={t("admin.dashboard.storageChart")}
            labels={labels}
            series={[{ name: t("admin.dashboard.used"), color: STORAGE, values: days.map((d) => d.storage_used) }]}
            scale="bytes"
            format={bytes}
          />
        </Card>
        <Card title={t("admin.dashboard.activityChart")} description={t("admin.dashboard.activityChartHint")}>
          <TimeChart
            kind="bars"
            title={t("admin.dashboard.activityChart")}
            labels={labels}
            series={[
              { name: t("admin.dashboard.uploads"), color: UPLOADS, values: days.map((d) => d.uploads) },
              { name: t("admin.dashboard.downloads"), color: DOWNLOADS, values: days.map((d) => d.downloads) },
            ]}
            scale="count"
            format={number}
          />
        </Card>
      </div>

      <div className={styles.grid2}>
        <Card title={t("admin.dashboard.workflowChart")} description={t("admin.dashboard.workflowChartHint")}>
          <TimeChart
            kind="bars"
            title={t("admin.dashboard.workflowChart")}
            labels={labels}
            series={[
              { name: t("admin.dashboard.signatures"), color: SIGNATURES, values: days.map((d) => d.signatures) },
              { name: t("admin.dashboard.validations"), color: VALIDATIONS, values: days.map((d) => d.validations) },
            ]}
            scale="count"
            format={number}
          />
        </Card>
        <Card title={t("admin.dashboard.byType")} description={t("admin.dashboard.byTypeHint")}>
          <StorageTypes types={s.stats?.storage_by_type ?? []} bytes={bytes} number={number} />
        </Card>
      </div>

      <div className={styles.grid2}>
        <Card title={t("admin.dashboard.attention")}>
          <ul className={styles.attention}>
            <li>
              <span className={failedJobs.data?.nb_total_objects ? styles.badgeDanger : styles.badgeOk}>{number(failedJobs.data?.nb_total_objects ?? 0)}</span>{" "}
              <Link href="/admin/jobs">{t("admin.dashboard.failedJobs")}</Link>
              {failedJobs.data?.objects[0]?.last_error && <div className={styles.error}>{failedJobs.data.objects[0].kind}: {failedJobs.data.objects[0].last_error}</div>}
            </li>
            <li>
              <span className={failedMails.length ? styles.badgeDanger : styles.badgeOk}>{number(failedMails.length)}</span> <Link href="/admin/mail">{t("admin.dashboard.failedMails")}</Link>
              {failedMails[0] && (
                <div className={styles.error}>
                  {failedMails[0].to}: {failedMails[0].last_error}
                </div>
              )}
            </li>
            <li>
              <span className={styles.badge}>{number(outbox.data?.nb_total_objects ?? 0)}</span> {t("admin.dashboard.waitingMails")}
            </li>
            <li>
              <span className={styles.badge}>{bytes(s.storage?.trashes?.total ?? 0)}</span> {t("admin.dashboard.inTrashes")}
            </li>
          </ul>
        </Card>
        <Card title={t("admin.dashboard.largest")}>
          <UserSizes users={s.stats?.largest_users ?? []} format={bytes} />
        </Card>
      </div>
    </div>
  );
}

const TYPE_LABELS = {
  documents: "admin.dashboard.type.documents",
  images: "admin.dashboard.type.images",
  video: "admin.dashboard.type.video",
  audio: "admin.dashboard.type.audio",
  archives: "admin.dashboard.type.archives",
  other: "admin.dashboard.type.other",
} as const satisfies Record<(typeof STORAGE_TYPES)[number], string>;

/** Storage by type: a table (what a screen reader reads) whose size cells carry a bar for the eye. */
function StorageTypes({ types, bytes, number }: { types: StorageByType; bytes: (n: number) => string; number: (n: number) => string }) {
  const t = useT();
  const total = types.reduce((sum, x) => sum + x.size, 0);
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{t("admin.dashboard.type")}</th>
            <th scope="col" className={styles.num}>
              {t("admin.col.size")}
            </th>
            <th scope="col" className={styles.num}>
              {t("admin.dashboard.versionsCount")}
            </th>
          </tr>
        </thead>
        <tbody>
          {types.map((x) => (
            <tr key={x.type}>
              <th scope="row">{t(TYPE_LABELS[x.type])}</th>
              <td className={styles.num}>
                {bytes(x.size)}
                <span className={styles.typeBar} aria-hidden="true">
                  <span className={styles.typeBarFill} style={{ width: `${total > 0 ? (x.size / total) * 100 : 0}%` }} />
                </span>
              </td>
              <td className={styles.num}>{number(x.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function UserSizes({ users, format }: { users: { id: string; user: string; login: string; size: number }[]; format: (n: number) => string }) {
  const t = useT();
  if (users.length === 0) return <p className={styles.muted}>{t("admin.dashboard.nobody")}</p>;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{t("admin.col.user")}</th>
            <th scope="col">{t("admin.col.login")}</th>
            <th scope="col" className={styles.num}>
              {t("admin.col.size")}
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td className={styles.wrap}>{u.user}</td>
              <td className={styles.wrap}>{u.login}</td>
              <td className={styles.num}>{format(u.size)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
