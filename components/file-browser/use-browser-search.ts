"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import { hasCriteria } from "@/lib/queries/files";
import type { Filters } from "./search-filters";

/** The search box (debounced) and its filters; searching replaces the folder's items by the matches. */
export function useBrowserSearch() {
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setQuery(search.trim()), 250);
    return () => clearTimeout(timer);
  }, [search]);
  const [filters, setFilters] = useState<Filters>({});
  const [filtersOpen, setFiltersOpen] = useState(false);
  const criteria = useMemo(() => ({ label: query, ...filters }), [query, filters]);
  const isSearching = useMemo(() => hasCriteria(criteria), [criteria]);
  /** Back to the folder's own items. */
  const reset = useCallback(() => {
    setSearch("");
    setQuery("");
    setFilters({});
  }, []);
  return { search, setSearch, query, filters, setFilters, filtersOpen, setFiltersOpen, criteria, isSearching, reset };
}

export type BrowserSearch = ReturnType<typeof useBrowserSearch>;
