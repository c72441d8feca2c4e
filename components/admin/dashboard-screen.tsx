"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatBytes, formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { jobsQuery } from "@/lib/queries/admin-jobs";
import { emailsQuery } from "@/lib/queries/admin-mail";
import { statsQuery } from "@/lib/queries/admin-stats";
import styles from "./admin.module.css";
import { AreaChart, BarChart } from "./charts";

const UPLOADS = "#2f5bd3";
const DOWNLOADS = "#17794a";

/** /admin: storage and its history, activity per day, the heaviest users, and what needs a look. */
export function DashboardScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const stats = useQuery(statsQuery());
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
          <span className={styles.muted}>{t("admin.dashboard.seen30", { count: s.visits?.length ?? 0 })}</span>
        </div>
        <div className={styles.figure}>
          <span className={styles.figureLabel}>{t("admin.dashboard.seats")}</span>
          <span className={styles.figureValue}>{number(s.slots?.used ?? 0)}</span>
          <span className={styles.muted}>{t("admin.dashboard.versions", { count: number(s.storage?.versions?.count ?? 0), size: bytes(s.storage?.versions?.size ?? 0) })}</span>
        </div>
      </section>

      <div className={styles.grid2}>
        <Card title={t("admin.dashboard.storageChart")} description={t("admin.dashboard.storageChartHint")}>
          {days.length === 0 ? (
            <p className={styles.muted}>{t("admin.dashboard.noSamples")}</p>
          ) : (
            <AreaChart
              title={t("admin.dashboard.storageChart")}
              description={days.map((d) => `${d.date}: ${bytes(d.storage_used)}`).join(", ")}
              points={days.map((d) => ({ label: dayLabel(d.date), value: d.storage_used }))}
              format={bytes}
            />
          )}
        </Card>
        <Card title={t("admin.dashboard.activityChart")} description={t("admin.dashboard.activityChartHint")}>
          {days.length === 0 ? (
            <p className={styles.muted}>{t("admin.dashboard.noSamples")}</p>
          ) : (
            <>
              <BarChart
                title={t("admin.dashboard.activityChart")}
                description={days.map((d) => `${d.date}: ${t("admin.dashboard.uploadsN", { count: d.uploads })}, ${t("admin.dashboard.downloadsN", { count: d.downloads })}`).join("; ")}
                labels={days.map((d) => dayLabel(d.date))}
                series={[
                  { name: t("admin.dashboard.uploads"), color: UPLOADS, values: days.map((d) => d.uploads) },
                  { name: t("admin.dashboard.downloads"), color: DOWNLOADS, values: days.map((d) => d.downloads) },
                ]}
              />
              <ul className={styles.legend}>
                <li>
                  <span className={styles.swatch} style={{ background: UPLOADS }} aria-hidden="true" />
                  {t("admin.dashboard.uploads")}: {number(today?.uploads ?? 0)} {t("admin.dashboard.today")}
                </li>
                <li>
                  <span className={styles.swatch} style={{ background: DOWNLOADS }} aria-hidden="true" />
                  {t("admin.dashboard.downloads")}: {number(today?.downloads ?? 0)} {t("admin.dashboard.today")}
                </li>
              </ul>
            </>
          )}
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
