"use client";

import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { OwnStorage, ownStorageResponse } from "@/lib/contracts/storage";

export type { OwnStorage };

export const storageKeys = { own: () => ["storage", "own"] as const };

/** The caller's usage (GET /api/account/storage); kept a minute, uploads elsewhere need not refresh it at once. */
export const ownStorageQuery = () => queryOptions({ queryKey: storageKeys.own(), queryFn: () => api.get<typeof ownStorageResponse>("/api/account/storage"), staleTime: 60_000 });

/** Share of the quota used, 0..1, or null when there is no quota. */
export const usedShare = (s: Pick<OwnStorage, "quota" | "used">) => (s.quota ? Math.min(1, s.used / s.quota) : null);
