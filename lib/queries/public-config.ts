"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { z } from "zod";
import type { publicConfigResponse } from "@/lib/contracts/config";

export type PublicConfig = z.infer<typeof publicConfigResponse>;

export const publicConfigKeys = { all: ["publicconfig"] as const };

/** GET /api/publicconfig (no token): name, brand colour and logo, features, for every page. */
export const publicConfigQuery = () => queryOptions({ queryKey: publicConfigKeys.all, queryFn: () => api.get<typeof publicConfigResponse>("/api/publicconfig"), staleTime: 60_000 });

/** The platform's brand as the signed-out and public pages show it; undefined while loading. */
export function useBranding(): { color: string; logoUrl: string | null } | undefined {
  const { data } = useQuery(publicConfigQuery());
  return data ? { color: data.brand_color, logoUrl: data.logo_url } : undefined;
}
