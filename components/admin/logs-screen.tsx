"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { fetchAllLogs, logsQuery, NO_LOG_FILTERS, type LogEntry, type LogFilters } from "@/lib/queries/admin-logs";
import styles from "./admin.module.css";
import { toCsv, downloadText } from "./csv";
import { describeAdminError } from "./describe-error";
import { Pager } from "./pager";

const PAGE = 50;
const EXPORT_MAX = 10_000;
// The types writeLog records (lib/server/audit/write-log.ts).
const TYPES = ["ADMLLOG_LOGIN", "ADMLLOG_LOGIN_FAILED", "ADMLLOG_LOGOUT", "ADMLLOG_INSERT", "ADMLLOG_UPDATE", "ADMLLOG_DELETE", "ADMLLOG_RESTORE", "ADMLLOG_PASSWORD", "ADMLLOG_CONFIG"];

/**
 * /admin/logs: the audit log filtered by user, type, status, object and dates, newest first,
 * paged; one entry in full in a dialog; the filtered entries as CSV. The export is made in the
 * browser from the API's pages (GET /api/logs, 1,000 at a time, at most 10,000 entries).
 */
export function LogsScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const [draft, setDraft] = useState<LogFilters>(NO_LOG_FILTERS);
  const [filters, setFilters] = useState<LogFilters>(NO_LOG_FILTERS);
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<LogEntry | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const logs = useQuery(logsQuery(filters, offset, PAGE));

  const set = (key: keyof LogFilters) => (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value });

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilters(draft);
    setOffset(0);
  }

  async function exportCsv() {
    setExporting(true);
    setExportError(null);
    try {
      const entries = await fetchAllLogs(filters, EXPORT_MAX);
      const csv = toCsv(
        ["id", "date", "user_id", "user", "type", "statut", "message", "object_type", "object_id", "object", "ip", "user_agent"],
        entries.map((e) => [e.id, e.date, e.user_id, e.user, e.type, e.statut, e.message, e.object_type, e.object_id, e.object, e.ip, e.user_agent]),
      );
      downloadText(`logs-${new Date().toISOString().slice(0, 10)}.csv`, csv);
    } catch (error) {
      setExportError(describeAdminError(error, t));
    } finally {
      setExporting(false);
    }
  }

  const page = logs.data;
  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={t("admin.logs.title")} subtitle={t("admin.logs.subtitle")} />
        <Button variant="secondary" onClick={exportCsv} disabled={exporting || !page?.nb_total_objects}>
          {exporting ? t("admin.logs.exporting") : t("admin.logs.export")}
        </Button>
      </div>
      {page && page.nb_total_objects > EXPORT_MAX && <p className={styles.muted}>{t("admin.logs.exportLimit", { max: EXPORT_MAX })}</p>}
      <FormStatus status={exportError ? { tone: "error", message: exportError } : null} />

      <form className={styles.filters} onSubmit={apply} aria-label={t("admin.logs.filters")}>
        <TextField label={t("admin.logs.user")} title={t("admin.logs.userHint")} value={draft.user_id} onChange={set("user_id")} inputMode="numeric" />
        <Select label={t("admin.logs.type")} value={draft.type} onChange={set("type")} options={[{ value: "", label: t("admin.logs.any") }, ...TYPES.map((v) => ({ value: v, label: v.replace("ADMLLOG_", "") }))]} />
        <Select
          label={t("admin.logs.status")}
          value={draft.statut}
          onChange={set("statut")}
          options={[
            { value: "", label: t("admin.logs.any") },
            { value: "ADMLLOG_OK", label: t("admin.logs.ok") },
            { value: "ADMLLOG_ERROR", label: t("admin.logs.failed") },
          ]}
        />
        <TextField label={t("admin.logs.objectType")} value={draft.object_type} onChange={set("object_type")} />
        <TextField label={t("admin.logs.objectId")} value={draft.object_id} onChange={set("object_id")} />
        <TextField label={t("admin.logs.from")} type="date" value={draft.date_start} onChange={set("date_start")} />
        <TextField label={t("admin.logs.to")} type="date" value={draft.date_end} onChange={set("date_end")} />
        <div className={styles.actions}>
          <Button type="submit">{t("admin.logs.apply")}</Button>
          <Button
            variant="ghost"
            onClick={() => {
              setDraft(NO_LOG_FILTERS);
              setFilters(NO_LOG_FILTERS);
              setOffset(0);
            }}
          >
            {t("admin.logs.reset")}
          </Button>
        </div>
      </form>

      {logs.isPending && <p className={styles.state}>{t("common.loading")}</p>}
      {logs.isError && (
        <div className={styles.stateBox} role="alert">
          <p>{describeAdminError(logs.error, t)}</p>
          <Button onClick={() => logs.refetch()}>{t("error.retry")}</Button>
        </div>
      )}
      {page && page.objects.length === 0 && <p className={styles.stateBox}>{t("admin.logs.none")}</p>}
      {page && page.objects.length > 0 && (
        <>
          <div className={styles.tableWrap}>
            <table className={styles.table} aria-label={t("admin.logs.title")}>
              <thead>
                <tr>
                  <th scope="col">{t("admin.logs.date")}</th>
                  <th scope="col">{t("admin.col.user")}</th>
                  <th scope="col">{t("admin.logs.type")}</th>
                  <th scope="col">{t("admin.logs.status")}</th>
                  <th scope="col">{t("admin.logs.message")}</th>
                  <th scope="col">{t("admin.logs.object")}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t("admin.logs.detail")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.objects.map((entry) => (
                  <tr key={entry.id}>
                    <td className={styles.nowrap}>{formatDate(entry.date, locale)}</td>
                    <td className={styles.wrap}>
                      {entry.user} <span className={styles.muted}>#{entry.user_id}</span>
                    </td>
                    <td className={styles.nowrap}>{entry.type.replace("ADMLLOG_", "")}</td>
                    <td>
                      <span className={entry.statut === "ADMLLOG_ERROR" ? styles.badgeDanger : styles.badgeOk}>{entry.statut === "ADMLLOG_ERROR" ? t("admin.logs.failed") : t("admin.logs.ok")}</span>
                    </td>
                    <td className={styles.wrap}>{entry.message}</td>
                    <td className={styles.wrap}>{entry.object_type ? `${entry.object_type} ${entry.object_id ?? ""}` : ""}</td>
                    <td>
                      <Button size="small" variant="ghost" aria-label={t("admin.logs.detailOf", { id: entry.id })} onClick={() => setOpen(entry)}>
                        {t("admin.logs.detail")}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager offset={offset} limit={PAGE} total={page.nb_total_objects} onChange={setOffset} />
        </>
      )}

      {open && (
        <Dialog title={t("admin.logs.entry", { id: open.id })} closeLabel={t("common.close")} onClose={() => setOpen(null)} footer={<Button onClick={() => setOpen(null)}>{t("common.close")}</Button>}>
          <dl className={styles.detail}>
            <dt>{t("admin.logs.date")}</dt>
            <dd>{formatDate(open.date, locale)}</dd>
            <dt>{t("admin.col.user")}</dt>
            <dd>
              {open.user} (#{open.user_id})
            </dd>
            <dt>{t("admin.logs.type")}</dt>
            <dd>{open.type}</dd>
            <dt>{t("admin.logs.status")}</dt>
            <dd>{open.statut}</dd>
            <dt>{t("admin.logs.message")}</dt>
            <dd>{open.message}</dd>
            <dt>{t("admin.logs.object")}</dt>
            <dd>{[open.object_type, open.object_id, open.object].filter(Boolean).join(" · ") || "—"}</dd>
            <dt>{t("admin.logs.ip")}</dt>
            <dd>{open.ip ?? "—"}</dd>
            <dt>{t("admin.logs.userAgent")}</dt>
            <dd>{open.user_agent ?? "—"}</dd>
          </dl>
        </Dialog>
      )}
    </div>
  );
}
