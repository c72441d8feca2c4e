"use client";

import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { statsResponse } from "@/lib/contracts/stats";
import { ALL_STATS, type StatsResponse } from "@/lib/contracts/stats";

export type Stats = StatsResponse;

export const adminStatsKeys = {
  all: ["admin", "stats"] as const,
  mask: (mask: number) => [...adminStatsKeys.all, mask] as const,
};

/** GET /api/stats?mask=: the dashboard asks for every part at once. */
export const statsQuery = (mask = ALL_STATS) =>
  queryOptions({
    queryKey: adminStatsKeys.mask(mask),
    queryFn: () => api.get<typeof statsResponse>(`/api/stats?mask=${mask}`),
  });
