"use client";

import type { FormEvent } from "react";
import { UserPicker } from "@/components/admin/people/user-picker";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { LOG_OBJECT_TYPES, LOG_TYPES } from "@/lib/contracts/logs";
import { logObjectTypeLabel, logTypeLabel } from "./log-vocabulary";
import { useT } from "@/lib/i18n/provider";
import { LOG_PERIODS, type LogFilters, type LogPeriod } from "@/lib/queries/admin-logs";
import styles from "./logs.module.css";

type Props = { draft: LogFilters; onChange: (draft: LogFilters) => void; onApply: () => void; onReset: () => void };

const PERIOD_KEYS = { all: "admin.logs.period.all", today: "admin.logs.period.today", week: "admin.logs.period.week", month: "admin.logs.period.month", custom: "admin.logs.period.custom" } as const;

/** The log filters: people (the console's people picker), type, status, object, period with presets. */
export function LogsFilters({ draft, onChange, onApply, onReset }: Props) {
  const t = useT();
  const set = (key: "type" | "statut" | "object_type" | "object_id" | "date_start" | "date_end") => (e: { target: { value: string } }) => onChange({ ...draft, [key]: e.target.value });
  const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label);

  function submit(event: FormEvent) {
    event.preventDefault();
    onApply();
  }

  return (
    <form className={styles.filters} onSubmit={submit} aria-label={t("admin.logs.filters")}>
      <div className={styles.people}>
        <UserPicker legend={t("admin.logs.people")} picked={draft.people} onChange={(people) => onChange({ ...draft, people })} />
      </div>
      <div className={styles.fields}>
        <Select
          label={t("admin.logs.type")}
          value={draft.type}
          onChange={set("type")}
          options={[{ value: "", label: t("admin.logs.any") }, ...LOG_TYPES.map((v) => ({ value: v, label: logTypeLabel(v, t) })).sort(byLabel)]}
        />
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
        <Select
          label={t("admin.logs.objectType")}
          value={draft.object_type}
          onChange={set("object_type")}
          options={[
            { value: "", label: t("admin.logs.any") },
            ...LOG_OBJECT_TYPES.map((v) => ({ value: v, label: logObjectTypeLabel(v, t) })).sort(byLabel),
            // A type set from an entry this console has no name for stays selectable.
            ...(draft.object_type && !(LOG_OBJECT_TYPES as readonly string[]).includes(draft.object_type) ? [{ value: draft.object_type, label: draft.object_type }] : []),
          ]}
        />
        <TextField label={t("admin.logs.objectId")} value={draft.object_id} onChange={set("object_id")} maxLength={255} />
        <Select
          label={t("admin.logs.period")}
          value={draft.period}
          onChange={(e) => onChange({ ...draft, period: e.target.value as LogPeriod })}
          options={LOG_PERIODS.map((p) => ({ value: p, label: t(PERIOD_KEYS[p]) }))}
        />
        {draft.period === "custom" && (
          <>
            <TextField label={t("admin.logs.from")} type="date" value={draft.date_start} onChange={set("date_start")} max={draft.date_end || undefined} />
            <TextField label={t("admin.logs.to")} type="date" value={draft.date_end} onChange={set("date_end")} min={draft.date_start || undefined} />
          </>
        )}
        <div className={styles.buttons}>
          <Button type="submit">{t("admin.logs.apply")}</Button>
          <Button variant="ghost" onClick={onReset}>
            {t("admin.logs.reset")}
          </Button>
        </div>
      </div>
    </form>
  );
}
