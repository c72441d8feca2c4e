"use client";

import { useEffect, useState, type ReactNode } from "react";
import { ConfirmDialog as BaseConfirmDialog } from "@/components/confirm-dialog";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import type { Translate } from "@/lib/i18n/translate";
import styles from "./people.module.css";

/** The value once it has stopped changing for `ms` (search boxes query as the user pauses). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * Why a console call failed, in the interface's language. The server's own sentence is kept for
 * refusals it explains better than a generic line could (the last administrator, a login taken,
 * a manager's limits), since those name the rule that applied.
 */
export function describePeopleError(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t("error.generic");
  if (error.status === 0) return t("error.network");
  if (isLockOut(error)) return t("adminPeople.options.lockedOut");
  if (error.status === 429) return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
  if (error.status === 400 && error.fields.length) return t("adminPeople.invalidFields", { fields: error.fields.join(", "), reason: error.message });
  if (error.status === 403 || error.status === 404 || error.status === 409 || error.status === 400) return t("adminPeople.refused", { reason: error.message });
  return t("error.generic");
}

/** The 409 of a connection-options change after which no administrator could connect. */
export function isLockOut(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 409) return false;
  const details = error.details as { reason?: string } | undefined;
  return details?.reason === "administrators_locked_out";
}

/** The search box of a console list (the caller goes back to the first page on a change). */
export function KeywordField({ value, onChange, placeholder }: { value: string; onChange: (value: string) => void; placeholder?: string }) {
  const t = useT();
  return <TextField label={t("adminPeople.search")} type="search" value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />;
}

type ListQuery = { isError: boolean; error: unknown; isPending: boolean; isSuccess: boolean };

/** What a console list says instead of rows: why it failed, that it loads, or that it is empty. */
export function ListStatus({ query, isEmpty, emptyText }: { query: ListQuery; isEmpty: boolean; emptyText: string }) {
  const t = useT();
  if (query.isError)
    return (
      <p role="alert" className={styles.state}>
        {describePeopleError(query.error, t)}
      </p>
    );
  if (query.isPending) return <p className={styles.state}>{t("common.loading")}</p>;
  if (query.isSuccess && isEmpty) return <p className={styles.state}>{emptyText}</p>;
  return null;
}

export type SortState<C extends string> = { column: C; direction: 1 | -1 };

/** A column header that sorts the table (aria-sort says how it is sorted now). */
export function SortHeader<C extends string>({ column, sort, onSort, children }: { column: C; sort: SortState<C>; onSort: (c: C) => void; children: ReactNode }) {
  const active = sort.column === column;
  return (
    <th scope="col" aria-sort={active ? (sort.direction === 1 ? "ascending" : "descending") : undefined}>
      <button type="button" className={styles.sortButton} onClick={() => onSort(column)}>
        {children}
        <span aria-hidden="true">{active ? (sort.direction === 1 ? "▲" : "▼") : "↕"}</span>
      </button>
    </th>
  );
}

export function nextSort<C extends string>(sort: SortState<C>, column: C): SortState<C> {
  return sort.column === column ? { column, direction: sort.direction === 1 ? -1 : 1 } : { column, direction: 1 };
}

export function compareBy<T>(value: (item: T) => string | number | null, direction: 1 | -1) {
  return (a: T, b: T) => {
    const x = value(a);
    const y = value(b);
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y), undefined, { sensitivity: "base", numeric: true });
    return order * direction;
  };
}

/** "1–50 of 132" and the previous/next buttons. */
type ConfirmProps = { title: string; text: string; confirmLabel: string; onConfirm: () => Promise<unknown>; onClose: () => void; danger?: boolean };

/** Asks before something that cannot be undone; a refusal (the last administrator...) is shown in the dialog. */
export function ConfirmDialog({ text, ...props }: ConfirmProps) {
  return (
    <BaseConfirmDialog {...props} describe={describePeopleError}>
      <p>{text}</p>
    </BaseConfirmDialog>
  );
}

/** A user's quota in GB, empty for no limit (the user dialog and the bulk quota). */
export function QuotaField({ value, onChange, error, disabled }: { value: string; onChange: (value: string) => void; error?: string | null; disabled?: boolean }) {
  const t = useT();
  return (
    <TextField
      label={t("adminPeople.users.quotaGb")}
      hint={t("adminPeople.users.quotaHint")}
      inputMode="decimal"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled}
      error={error}
    />
  );
}

export const ROLE_KEYS = { 1: "adminPeople.role.external", 2: "adminPeople.role.user", 3: "adminPeople.role.admin", 4: "adminPeople.role.manager" } as const;
