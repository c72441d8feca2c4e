"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { ssoProvidersResponse } from "@/lib/contracts/sso";

export const ssoKeys = { providers: ["sso", "providers"] as const };

/** GET /api/sso/providers (no token): the single sign-on providers the sign-in page offers. */
export const ssoProvidersQuery = () => queryOptions({ queryKey: ssoKeys.providers, queryFn: () => api.get<typeof ssoProvidersResponse>("/api/sso/providers"), staleTime: 60_000 });

export const useSsoProviders = () => useQuery(ssoProvidersQuery());
