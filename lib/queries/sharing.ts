"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { shareActivityResponse, shareListResponse, shareResponse, ShareResponse } from "@/lib/contracts/shares";
import type { depositorGroupListResponse, DepositorOption, ulinkListResponse, ulinkResponse, UlinkResponse } from "@/lib/contracts/ulinks";

export type { ShareResponse, UlinkResponse };

/** Access mode bits of a link share (the contract's flags), and its options. */
export const SHARE_FLAGS = { downloadOnly: 1, previewOnly: 2, previewAndDownload: 4, password: 16, sms: 32, receipt: 64, singleDownload: 128 } as const;
export const ULINK_RECEIPT = 4;

export const sharingKeys = {
  all: ["sharing"] as const,
  shares: () => [...sharingKeys.all, "shares"] as const,
  ulinks: () => [...sharingKeys.all, "ulinks"] as const,
  activity: (shareId: number) => [...sharingKeys.all, "activity", shareId] as const,
  deposits: (ulinkId: number) => [...sharingKeys.ulinks(), ulinkId, "deposits"] as const,
};

export const sharesQuery = () =>
  queryOptions({ queryKey: sharingKeys.shares(), queryFn: async () => (await api.get<typeof shareListResponse>("/api/shares?nb_objects=1000")).objects });

export const ulinksQuery = () =>
  queryOptions({ queryKey: sharingKeys.ulinks(), queryFn: async () => (await api.get<typeof ulinkListResponse>("/api/ulinks?nb_objects=1000")).objects });

export const shareActivityQuery = (shareId: number) =>
  queryOptions({ queryKey: sharingKeys.activity(shareId), queryFn: () => api.get<typeof shareActivityResponse>(`/api/share/${shareId}/activity?nb_objects=50`) });

function useInvalidateSharing() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: sharingKeys.all });
}

/** The gate options of a link share (api.md, "Document engagement on link shares"). */
export type GateOptions = { ask_email: 0 | 1; verify_email: 0 | 1; allow: string[]; deny: string[]; agreement: string | null; watermark: 0 | 1; notify_view: 0 | 1 };

export type NewShare = {
  roots: { id: number; entity_type: 0 | 1 }[];
  flags: number;
  password?: string;
  expiration_date?: string;
  name?: string;
} & Partial<GateOptions>;

export function useCreateShare() {
  const invalidate = useInvalidateSharing();
  return useMutation({ mutationFn: (input: NewShare) => api.post<typeof shareResponse>("/api/share", input), onSuccess: invalidate });
}

/** What PUT /share/(id) changes: any option of a creation; `password: null` removes it, `expiration_date: null` clears it. */
export type ShareChanges = Partial<Omit<NewShare, "roots" | "password" | "expiration_date" | "name">> & { password?: string | null; expiration_date?: string | null; name?: string | null };

/** PUT /share/(id): every option of an existing link, its gate included. */
export function useUpdateShare() {
  const invalidate = useInvalidateSharing();
  return useMutation({ mutationFn: ({ shareId, changes }: { shareId: number; changes: ShareChanges }) => api.put<typeof shareResponse>(`/api/share/${shareId}`, changes), onSuccess: invalidate });
}

/**
 * Shares an item with outside addresses: an email share (POST /share/email) on the given link,
 * or on a new preview-and-download link when the item has none yet.
 */
export function useShareByEmail() {
  const invalidate = useInvalidateSharing();
  return useMutation({
    mutationFn: async (input: { root: NewShare["roots"][number]; shareId: number | null; recipients: string[]; object: string; content: string }) => {
      const shareId = input.shareId ?? (await api.post<typeof shareResponse>("/api/share", { roots: [input.root], flags: SHARE_FLAGS.previewAndDownload })).id;
      await api.post("/api/share/email", { share_id: shareId, object: input.object, content: input.content, recipients: input.recipients.map((email) => ({ email })) });
      return shareId;
    },
    onSettled: invalidate,
  });
}

export function useDeleteShare() {
  const invalidate = useInvalidateSharing();
  return useMutation({ mutationFn: (id: number) => api.delete(`/api/share/${id}`), onSuccess: invalidate });
}

export function useSendShare() {
  const invalidate = useInvalidateSharing();
  return useMutation({
    mutationFn: (input: { shareId: number; recipients: string[]; object: string; content: string }) =>
      api.post("/api/share/email", { share_id: input.shareId, object: input.object, content: input.content, recipients: input.recipients.map((email) => ({ email })) }),
    onSuccess: invalidate,
  });
}

export type NewUlink = { folder_id: number; name?: string; password?: string; expiration_date?: string; alert: boolean; depositor?: DepositorOption };

/** A drop link's deposits grouped by depositor (GET /api/ulink/(id)/deposits), read when the owner opens them. */
export const ulinkDepositsQuery = (ulinkId: number) =>
  queryOptions({
    queryKey: sharingKeys.deposits(ulinkId),
    queryFn: async () => (await api.get<typeof depositorGroupListResponse>(`/api/ulink/${ulinkId}/deposits?nb_objects=1000`)).objects,
  });

export function useCreateUlink() {
  const invalidate = useInvalidateSharing();
  return useMutation({ mutationFn: (input: NewUlink) => api.post<typeof ulinkResponse>("/api/ulink", input), onSuccess: invalidate });
}

export function useDeleteUlink() {
  const invalidate = useInvalidateSharing();
  return useMutation({ mutationFn: (id: number) => api.delete(`/api/ulink/${id}`), onSuccess: invalidate });
}

export function useSendUlink() {
  const invalidate = useInvalidateSharing();
  return useMutation({
    mutationFn: (input: { folderId: number; recipients: string[]; object: string; content: string; alert: boolean }) =>
      api.post("/api/ulink/email", { folder_id: input.folderId, object: input.object, content: input.content, alert: input.alert, recipients: input.recipients.map((email) => ({ email })) }),
    onSuccess: invalidate,
  });
}

/** Something typed that reads as one email address (the server checks it for real). */
export const isEmailAddress = (text: string) => /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/.test(text.trim());

/** "a@x.org, b@y.org; c@z.org" → three addresses. */
export const splitAddresses = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

/** A link's state as its owner needs to know it. */
export function linkState(link: { is_valid: boolean; expiration_date: string | null; consumed_date?: string | null }): "active" | "expired" | "used" | "invalid" {
  if (link.consumed_date) return "used";
  if (link.expiration_date && new Date(link.expiration_date) <= new Date()) return "expired";
  return link.is_valid ? "active" : "invalid";
}
