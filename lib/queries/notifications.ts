"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { NotificationResponse, notificationResponse, notificationsResponse } from "@/lib/contracts/notifications";

export type { NotificationResponse };

export const notificationsKeys = { all: ["notifications"] as const, latest: () => [...notificationsKeys.all, "latest"] as const };

/** How many the bell's panel lists. */
export const LATEST = 20;

/** The latest notifications and the unread count, polled every minute and on focus (issue 29). */
export const latestNotificationsQuery = () =>
  queryOptions({
    queryKey: notificationsKeys.latest(),
    queryFn: () => api.get<typeof notificationsResponse>(`/api/notifications?nb_objects=${LATEST}`),
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
    staleTime: 10_000,
  });

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.put<typeof notificationResponse>(`/api/notification/${id}`, { read: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsKeys.all }),
  });
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.put("/api/notifications/read", {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsKeys.all }),
  });
}
