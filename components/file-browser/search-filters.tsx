"use client";

import { useId } from "react";
import { FILE_TYPE_FILTERS, type FileTypeFilter } from "@/lib/contracts/folders";
import { useT } from "@/lib/i18n/provider";
import { useAccount } from "@/lib/queries/account";
import type { SearchCriteria } from "@/lib/queries/files";
import { TagFilter } from "@/components/tags/tag-filter";
import styles from "./file-browser.module.css";

export type Filters = Omit<SearchCriteria, "label">;

const MB = 1024 * 1024;
const toBytes = (value: string) => (value.trim() === "" || Number.isNaN(Number(value)) ? undefined : Math.round(Number(value) * MB));
const toMb = (bytes: number | undefined) => (bytes === undefined ? "" : String(bytes / MB));

/** Where to look (content, comments), the date and size ranges, the kind, the owner and the tags of a search. */
export function SearchFilters({ filters, onChange }: { filters: Filters; onChange: (filters: Filters) => void }) {
  const t = useT();
  const id = useId();
  const account = useAccount().data;
  const me = account ? Number(account.id) : undefined;
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  return (
    <fieldset className={styles.filters} aria-label={t("search.filters")}>
      <label className={styles.filter}>
        <input type="checkbox" aria-describedby={`${id}-syntax`} checked={Boolean(filters.inContent)} onChange={(e) => set({ inContent: e.target.checked })} />
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
      <label className={styles.filter} htmlFor={`${id}-type`}>
        {t("search.type")}
        <select id={`${id}-type`} className={styles.filterSelect} value={filters.type ?? ""} onChange={(e) => set({ type: (e.target.value || undefined) as FileTypeFilter | undefined })}>
          <option value="">{t("search.typeAny")}</option>
          {FILE_TYPE_FILTERS.map((type) => (
            <option key={type} value={type}>
              {t(`search.types.${type}`)}
            </option>
          ))}
        </select>
      </label>
      {me !== undefined && (
        <label className={styles.filter} htmlFor={`${id}-owner`}>
          {t("search.owner")}
          <select id={`${id}-owner`} className={styles.filterSelect} value={filters.ownerId === undefined ? "" : "me"} onChange={(e) => set({ ownerId: e.target.value === "me" ? me : undefined })}>
            <option value="">{t("search.ownerAny")}</option>
            <option value="me">{t("search.ownerMe")}</option>
          </select>
        </label>
      )}
      <TagFilter value={filters.tags ?? []} onChange={(tags) => set({ tags })} />
      <p id={`${id}-syntax`} className={styles.filterHint}>
        {t("search.syntax")}
      </p>
    </fieldset>
  );
}
