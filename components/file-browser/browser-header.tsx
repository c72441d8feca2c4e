"use client";

import { useId } from "react";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/provider";
import { Breadcrumbs, type Crumb } from "./breadcrumbs";
import styles from "./file-browser.module.css";
import { SearchFilters } from "./search-filters";
import type { BrowserSearch } from "./use-browser-search";

/** The folder's title and path, the search box and its filters. */
export function BrowserHeader({ title, crumbs, search }: { title: string; crumbs: Crumb[] | null; search: BrowserSearch }) {
  const t = useT();
  const filtersId = useId();
  return (
    <>
      <div className={styles.top}>
        <div className={styles.heading}>
          {crumbs && <Breadcrumbs crumbs={crumbs} />}
          <h1 className={styles.title}>{title}</h1>
        </div>
        <div role="search" className={styles.search}>
          <input
            type="search"
            className={styles.searchInput}
            placeholder={t("files.search")}
            aria-label={t("files.search")}
            value={search.search}
            onChange={(e) => search.setSearch(e.target.value)}
            onKeyDown={(e) => e.key === "Escape" && search.setSearch("")}
          />
          <Button size="small" variant="ghost" aria-expanded={search.filtersOpen} aria-controls={filtersId} onClick={() => search.setFiltersOpen((open) => !open)}>
            {t("search.filtersButton")}
          </Button>
        </div>
      </div>
      {search.filtersOpen && (
        <div id={filtersId}>
          <SearchFilters filters={search.filters} onChange={search.setFilters} />
        </div>
      )}
    </>
  );
}
