"use client";

import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { fileResponse } from "@/lib/contracts/files";
import type { LogEntryResponse, logEntryResponse, logListResponse } from "@/lib/contracts/logs";
import { queryString } from "./admin-envelope";

export type LogEntry = LogEntryResponse;

export type LogPeriod = "all" | "today" | "week" | "month" | "custom";
export const LOG_PERIODS: LogPeriod[] = ["all", "today", "week", "month", "custom"];

/**
 * The filters of GET /api/logs as the form holds them (empty = not filtered): the people picked
 * (ids and names, the names for the chips), a period and, for a custom one, two days.
 */
export type LogFilters = {
  people: { id: string; name: string }[];
  type: string;
  statut: string;
  object_type: string;
  object_id: string;
  period: LogPeriod;
  date_start: string;
  date_end: string;
};
export const NO_LOG_FILTERS: LogFilters = { people: [], type: "", statut: "", object_type: "", object_id: "", period: "all", date_start: "", date_end: "" };

/** Midnight in the reader's time zone, `daysBack` days before `now`'s day. */
function startOfDay(now: Date, daysBack: number): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack);
}

/** The period as the API's date_start and date_end, in the reader's days (today counts as one of the 7 or 30). */
export function periodRange(filters: Pick<LogFilters, "period" | "date_start" | "date_end">, now = new Date()): { date_start?: string; date_end?: string } {
  switch (filters.period) {
    case "today":
      return { date_start: startOfDay(now, 0).toISOString() };
    case "week":
      return { date_start: startOfDay(now, 6).toISOString() };
    case "month":
      return { date_start: startOfDay(now, 29).toISOString() };
    case "custom": {
      const day = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00`) : null);
      const start = day(filters.date_start);
      const end = day(filters.date_end);
      // The end day is included whole: up to the last millisecond before the next midnight.
      return { date_start: start?.toISOString(), date_end: end ? new Date(startOfDay(end, -1).getTime() - 1).toISOString() : undefined };
    }
    default:
      return {};
  }
}

export const adminLogsKeys = {
  all: ["admin", "logs"] as const,
  list: (filters: LogFilters, offset: number, limit: number) => [...adminLogsKeys.all, filters, offset, limit] as const,
  one: (id: number) => [...adminLogsKeys.all, "one", id] as const,
};

/** Several people are sent as one comma-separated `user_id` (a compatible extension of the contract's filter). */
export function logsPath(filters: LogFilters, offset: number, limit: number): string {
  return `/api/logs${queryString({
    user_id: filters.people.map((p) => p.id).join(",") || undefined,
    type: filters.type || undefined,
    statut: filters.statut || undefined,
    object_type: filters.object_type || undefined,
    object_id: filters.object_id.trim() || undefined,
    ...periodRange(filters),
    offset_start: offset,
    nb_objects: limit,
  })}`;
}

export const logsQuery = (filters: LogFilters, offset: number, limit: number) =>
  queryOptions({
    queryKey: adminLogsKeys.list(filters, offset, limit),
    queryFn: () => api.get<typeof logListResponse>(logsPath(filters, offset, limit)),
    placeholderData: keepPreviousData,
  });

export const logQuery = (id: number) =>
  queryOptions({ queryKey: adminLogsKeys.one(id), queryFn: () => api.get<typeof logEntryResponse>(`/api/log/${id}`) });

/** Every entry matching the filters, page after page of the API (at most `max`), for the CSV export. */
export async function fetchAllLogs(filters: LogFilters, max = 10_000): Promise<LogEntry[]> {
  const all: LogEntry[] = [];
  for (let offset = 0; offset < max; offset += 1000) {
    const page = await api.get<typeof logListResponse>(logsPath(filters, offset, 1000));
    all.push(...page.objects);
    if (page.objects.length < 1000) break;
  }
  return all.slice(0, max);
}

/** The folder holding a file (or one of its versions), to open it in the browser from a log entry. */
export async function fileFolderId(fileId: number): Promise<number> {
  const file = await api.get<typeof fileResponse>(`/api/file/${fileId}`);
  return file.parent_id;
}
