"use client";

import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { smsListResponse } from "@/lib/contracts/sms";
import type { emailListResponse, EmailResponse, emailResponse, EmailType, PreviewEmailResponse, previewEmailResponse } from "@/lib/contracts/emails";
import { queryString } from "./admin-envelope";

export type Email = EmailResponse;

export const adminMailKeys = {
  all: ["admin", "mail"] as const,
  emails: (type: EmailType, offset: number, limit: number) => [...adminMailKeys.all, "emails", type, offset, limit] as const,
  sms: (offset: number, limit: number) => [...adminMailKeys.all, "sms", offset, limit] as const,
  preview: (input: TemplatePreviewInput) => [...adminMailKeys.all, "preview", input] as const,
};

export type TemplatePreview = PreviewEmailResponse;
export type TemplatePreviewInput = { object: string; content: string; language: string };

/**
 * POST /api/email/preview: the template rendered by the server's mail renderer with sample values.
 * A read that happens to need a body; an unknown placeholder comes back as its 400 (no retry).
 */
export const templatePreviewQuery = (input: TemplatePreviewInput) =>
  queryOptions({
    queryKey: adminMailKeys.preview(input),
    queryFn: () => api.post<typeof previewEmailResponse>("/api/email/preview", input),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  });

/** GET /api/emails?type=: the outbox (EM_TE_TOSEND), the sent mails (EM_TE_SENDED) or the alert templates (EM_TE_ALERT). */
export const emailsQuery = (type: EmailType, offset: number, limit: number) =>
  queryOptions({
    queryKey: adminMailKeys.emails(type, offset, limit),
    queryFn: () => api.get<typeof emailListResponse>(`/api/emails${queryString({ type, offset_start: offset, nb_objects: limit })}`),
    placeholderData: keepPreviousData,
  });

export const smsQuery = (offset: number, limit: number) =>
  queryOptions({
    queryKey: adminMailKeys.sms(offset, limit),
    queryFn: () => api.get<typeof smsListResponse>(`/api/admin/sms${queryString({ offset_start: offset, nb_objects: limit })}`),
    placeholderData: keepPreviousData,
  });

function useInvalidateMail() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: adminMailKeys.all }), queryClient.invalidateQueries({ queryKey: ["admin", "jobs"] })]);
}

/** POST /api/email/(id)/resend: a waiting (failed) mail goes out again now. */
export function useResendEmail() {
  const invalidate = useInvalidateMail();
  return useMutation({ mutationFn: (id: number) => api.post<typeof emailResponse>(`/api/email/${id}/resend`), onSettled: invalidate });
}

/** DELETE /api/email/(id): cancel a waiting mail, or remove a template. */
export function useDeleteEmail() {
  const invalidate = useInvalidateMail();
  return useMutation({ mutationFn: (id: number) => api.delete(`/api/email/${id}`), onSettled: invalidate });
}

export type TemplateInput = { object: string; content: string };

/** POST /api/email (a new alert template) or PUT /api/email/(id). */
export function useSaveTemplate() {
  const invalidate = useInvalidateMail();
  return useMutation({
    mutationFn: (input: TemplateInput & { id?: number }) =>
      input.id ? api.put<typeof emailResponse>(`/api/email/${input.id}`, { object: input.object, content: input.content }) : api.post<typeof emailResponse>("/api/email", { type: "EM_TE_ALERT", object: input.object, content: input.content }),
    onSettled: invalidate,
  });
}
