"use client";

import { useId } from "react";
import { useT } from "@/lib/i18n/provider";
import type { SearchCriteria } from "@/lib/queries/files";
import { TagFilter } from "@/components/tags/tag-filter";
import styles from "./file-browser.module.css";

export type Filters = Omit<SearchCriteria, "label">;

const MB = 1024 * 1024;
const toBytes = (value: string) => (value.trim() === "" || Number.isNaN(Number(value)) ? undefined : Math.round(Number(value) * MB));
const toMb = (bytes: number | undefined) => (bytes === undefined ? "" : String(bytes / MB));

/** Where to look (content, comments) and the date and size ranges of a search. */
export function SearchFilters({ filters, onChange }: { filters: Filters; onChange: (filters: Filters) => void }) {
  const t = useT();
  const id = useId();
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  return (
    <fieldset className={styles.filters} aria-label={t("search.filters")}>
      <label className={styles.filter}>
        <input type="checkbox" checked={Boolean(filters.inContent)} onChange={(e) => set({ inContent: e.target.checked })} />
        {t("search.inContent")}
      </label>
      <label className={styles.filter}>
        <input type="checkbox" checked={Boolean(filters.inComments)} onChange={(e) => set({ inComments: e.target.checked })} />
        {t("search.inComments")}
      </label>
      <label className={styles.filter} htmlFor={`${id}-after`}>
        {t("search.modifiedAfter")}
        <input id={`${id}-after`} type="date" value={filters.modifiedAfter ?? ""} onChange={(e) => set({ modifiedAfter: e.target.value || undefined })} />
      </label>
      <label className={styles.filter} htmlFor={`${id}-before`}>
        {t("search.modifiedBefore")}
        <input id={`${id}-before`} type="date" value={filters.modifiedBefore ?? ""} onChange={(e) => set({ modifiedBefore: e.target.value || undefined })} />
      </label>
      <label className={styles.filter} htmlFor={`${id}-min`}>
        {t("search.minSize")}
        <input id={`${id}-min`} type="number" min={0} step="any" inputMode="decimal" className={styles.sizeInput} value={toMb(filters.minSize)} onChange={(e) => set({ minSize: toBytes(e.target.value) })} />
      </label>
      <label className={styles.filter} htmlFor={`${id}-max`}>
        {t("search.maxSize")}
        <input id={`${id}-max`} type="number" min={0} step="any" inputMode="decimal" className={styles.sizeInput} value={toMb(filters.maxSize)} onChange={(e) => set({ maxSize: toBytes(e.target.value) })} />
      </label>
      <TagFilter value={filters.tags ?? []} onChange={(tags) => set({ tags })} />
    </fieldset>
  );
}
