"use client";

import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { LinksAnalyticsJson, linksAnalyticsResponse, ShareAnalyticsJson, shareAnalyticsResponse, VisitorTimelineJson, visitorTimelineResponse } from "@/lib/contracts/engagement";
import type { shareResponse } from "@/lib/contracts/shares";

export type { LinksAnalyticsJson, ShareAnalyticsJson, VisitorTimelineJson };
export type AnalyticsVisitor = ShareAnalyticsJson["visitors_list"][number];

/** The owner's view of engagement on link shares (api.md, "Document engagement on link shares"). */
export const engagementKeys = {
  all: ["engagement"] as const,
  share: (shareId: number) => [...engagementKeys.all, "share", shareId] as const,
  analytics: (shareId: number) => [...engagementKeys.share(shareId), "analytics"] as const,
  visitor: (shareId: number, visitorId: number) => [...engagementKeys.share(shareId), "visitor", visitorId] as const,
  links: () => [...engagementKeys.all, "links"] as const,
};

/** The link itself, for its name and documents (GET /share/(id)). */
export const analyticsShareQuery = (shareId: number) =>
  queryOptions({ queryKey: engagementKeys.share(shareId), queryFn: () => api.get<typeof shareResponse>(`/api/share/${shareId}`), retry: false });

export const shareAnalyticsQuery = (shareId: number) =>
  queryOptions({ queryKey: engagementKeys.analytics(shareId), queryFn: () => api.get<typeof shareAnalyticsResponse>(`/api/share/${shareId}/analytics`), retry: false });

export const visitorTimelineQuery = (shareId: number, visitorId: number) =>
  queryOptions({
    queryKey: engagementKeys.visitor(shareId, visitorId),
    queryFn: () => api.get<typeof visitorTimelineResponse>(`/api/share/${shareId}/analytics/visitors/${visitorId}`),
  });

export const linksAnalyticsQuery = () => queryOptions({ queryKey: engagementKeys.links(), queryFn: () => api.get<typeof linksAnalyticsResponse>("/api/shares/analytics") });

/** Where "Export CSV" points: the server answers the visitors as a CSV attachment. */
export const analyticsExportUrl = (shareId: number) => `/api/share/${shareId}/analytics/export`;
