"use client";

import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { LogEntryResponse } from "@/lib/contracts/logs";
import { queryString, type Page } from "./admin-envelope";

export type LogEntry = LogEntryResponse;

/** The filters of GET /api/logs, as the form holds them (empty = not filtered). */
export type LogFilters = { user_id: string; type: string; statut: string; object_type: string; object_id: string; date_start: string; date_end: string };
export const NO_LOG_FILTERS: LogFilters = { user_id: "", type: "", statut: "", object_type: "", object_id: "", date_start: "", date_end: "" };

export const adminLogsKeys = {
  all: ["admin", "logs"] as const,
  list: (filters: LogFilters, offset: number, limit: number) => [...adminLogsKeys.all, filters, offset, limit] as const,
  one: (id: number) => [...adminLogsKeys.all, "one", id] as const,
};

/** Dates of the form are days (YYYY-MM-DD): the end day is included whole. */
export function logsPath(filters: LogFilters, offset: number, limit: number): string {
  return `/api/logs${queryString({
    ...filters,
    date_start: filters.date_start ? `${filters.date_start}T00:00:00Z` : undefined,
    date_end: filters.date_end ? `${filters.date_end}T23:59:59.999Z` : undefined,
    offset_start: offset,
    nb_objects: limit,
  })}`;
}

export const logsQuery = (filters: LogFilters, offset: number, limit: number) =>
  queryOptions({
    queryKey: adminLogsKeys.list(filters, offset, limit),
    queryFn: () => api.get<Page<LogEntry>>(logsPath(filters, offset, limit)),
    placeholderData: keepPreviousData,
  });

export const logQuery = (id: number) =>
  queryOptions({ queryKey: adminLogsKeys.one(id), queryFn: () => api.get<LogEntry>(`/api/log/${id}`) });

/** Every entry matching the filters, page after page of the API (at most `max`), for the CSV export. */
export async function fetchAllLogs(filters: LogFilters, max = 10_000): Promise<LogEntry[]> {
  const all: LogEntry[] = [];
  for (let offset = 0; offset < max; offset += 1000) {
    const page = await api.get<Page<LogEntry>>(logsPath(filters, offset, 1000));
    all.push(...page.objects);
    if (page.objects.length < 1000) break;
  }
  return all.slice(0, max);
}
