"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { logActorName, logObjectTypeLabel, logTypeLabel } from "./log-vocabulary";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { fetchAllLogs, logsQuery, NO_LOG_FILTERS, type LogEntry, type LogFilters } from "@/lib/queries/admin-logs";
import styles from "./admin.module.css";
import { toCsv, downloadText } from "./csv";
import { describeAdminError } from "./describe-error";
import { LogMessage } from "./log-message";
import { LogsFilters } from "./logs-filters";
import own from "./logs.module.css";
import { Pager } from "./pager";

const PAGE = 50;
const EXPORT_MAX = 10_000;

/**
 * /admin/logs: the audit log filtered by person, type, status, object and period, newest first,
 * paged, each entry told in the reader's language (components/admin/log-vocabulary.ts); one entry in full in
 * a dialog; the filtered entries as CSV with the raw fields. The export is made in the browser from
 * the API's pages (GET /api/logs, 1,000 at a time, at most 10,000 entries).
 */
export function LogsScreen({ initial = NO_LOG_FILTERS }: { initial?: LogFilters }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const [draft, setDraft] = useState<LogFilters>(initial);
  const [filters, setFilters] = useState<LogFilters>(initial);
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<LogEntry | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const logs = useQuery(logsQuery(filters, offset, PAGE));

  function apply(next: LogFilters) {
    setDraft(next);
    setFilters(next);
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
  const status = (entry: LogEntry) => (
    <span className={entry.statut === "ADMLLOG_ERROR" ? styles.badgeDanger : styles.badgeOk}>{entry.statut === "ADMLLOG_ERROR" ? t("admin.logs.failed") : t("admin.logs.ok")}</span>
  );
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

      <LogsFilters draft={draft} onChange={setDraft} onApply={() => apply(draft)} onReset={() => apply(NO_LOG_FILTERS)} />

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
            <table className={`${styles.table} ${own.entries}`} aria-label={t("admin.logs.title")}>
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
                {page.objects.map((entry) => {
                  const actor = logActorName(entry, t);
                  const objectName = entry.object ?? (entry.object_id ? `#${entry.object_id}` : "");
                  return (
                    <tr key={entry.id}>
                      <td className={`${styles.nowrap} ${own.date}`}>{formatDate(entry.date, locale)}</td>
                      <td className={own.person}>
                        <button
                          type="button"
                          className={own.filterButton}
                          aria-label={t("admin.logs.filterPerson", { name: actor })}
                          title={t("admin.logs.filterPerson", { name: actor })}
                          onClick={() => apply({ ...filters, people: [{ id: entry.user_id, name: actor }] })}
                        >
                          {actor}
                        </button>
                      </td>
                      <td className={`${styles.nowrap} ${own.kind}`}>
                        <span className={styles.badge}>{logTypeLabel(entry.type, t)}</span>
                      </td>
                      <td className={own.kind}>{status(entry)}</td>
                      <td className={`${styles.wrap} ${own.message}`}>
                        <LogMessage entry={entry} />
                      </td>
                      <td className={own.objectColumn}>
                        {entry.object_type && (
                          <div className={own.objectCell}>
                            <span className={styles.muted}>{logObjectTypeLabel(entry.object_type, t)}</span>
                            {entry.object_id && (
                              <button
                                type="button"
                                className={own.objectFilter}
                                aria-label={t("admin.logs.filterObject", { name: objectName })}
                                onClick={() => apply({ ...filters, object_type: entry.object_type ?? "", object_id: entry.object_id ?? "" })}
                              >
                                {t("admin.logs.thisObject")}
                              </button>
                            )}
                          </div>
                        )}
                      </td>
                      <td>
                        <Button size="small" variant="ghost" aria-label={t("admin.logs.detailOf", { id: entry.id })} onClick={() => setOpen(entry)}>
                          {t("admin.logs.detail")}
                        </Button>
                      </td>
                    </tr>
                  );
                })}
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
              {logActorName(open, t)} (#{open.user_id})
            </dd>
            <dt>{t("admin.logs.type")}</dt>
            <dd>
              {logTypeLabel(open.type, t)} <span className={styles.muted}>({open.type})</span>
            </dd>
            <dt>{t("admin.logs.status")}</dt>
            <dd>{status(open)}</dd>
            <dt>{t("admin.logs.message")}</dt>
            <dd>
              <LogMessage entry={open} />
            </dd>
            <dt>{t("admin.logs.recorded")}</dt>
            <dd lang="en">{open.message}</dd>
            <dt>{t("admin.logs.object")}</dt>
            <dd>{[open.object_type && logObjectTypeLabel(open.object_type, t), open.object_id && `#${open.object_id}`, open.object].filter(Boolean).join(" · ") || "—"}</dd>
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
