"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { fileResponse } from "@/lib/contracts/files";
import type {
  FileWorkflowResponse,
  ValidatorCandidate,
  validatorCandidatesResponse,
  workflowInstanceListResponse,
  WorkflowInstanceResponse,
  workflowInstanceResponse,
  workflowTokenResponse,
} from "@/lib/contracts/workflows";
import { filesKeys } from "./files";

export type { FileWorkflowResponse, ValidatorCandidate, WorkflowInstanceResponse };

export const workflowKeys = {
  all: ["workflows"] as const,
  mine: () => [...workflowKeys.all, "mine"] as const,
  toValidate: () => [...workflowKeys.all, "to-validate"] as const,
  candidates: (search: string) => [...workflowKeys.all, "candidates", search] as const,
  public: (token: string) => [...workflowKeys.all, "public", token] as const,
};

/** The instances I started (GET /workflow/instances). */
export const myWorkflowsQuery = () =>
  queryOptions({ queryKey: workflowKeys.mine(), queryFn: async () => (await api.get<typeof workflowInstanceListResponse>("/api/workflow/instances?nb_objects=200")).objects });

/** The instances I am asked to validate as an internal validator. */
export const toValidateQuery = () =>
  queryOptions({
    queryKey: workflowKeys.toValidate(),
    queryFn: async () => (await api.get<typeof workflowInstanceListResponse>("/api/workflow/instances?role=validator&nb_objects=200")).objects,
  });

/** People to name as internal validators (the server wants 3 characters). */
export const validatorCandidatesQuery = (search: string) =>
  queryOptions({
    queryKey: workflowKeys.candidates(search),
    queryFn: () => api.get<typeof validatorCandidatesResponse>(`/api/workflow/validators?search=${encodeURIComponent(search.trim())}`),
    enabled: search.trim().length >= 3,
    staleTime: 30_000,
  });

/** The instance behind a mailed link (no session). */
export const publicWorkflowQuery = (token: string) =>
  queryOptions({ queryKey: workflowKeys.public(token), queryFn: () => api.get<typeof workflowInstanceResponse>(`/api/workflow/instance/${encodeURIComponent(token)}`), retry: false });

export type NewWorkflow = {
  flux: 1 | 4;
  objects: number[];
  interne: { id: string; email: string; name?: string }[];
  externe: { email: string }[];
  comment?: string;
  send_copy: boolean;
};

function useInvalidateWorkflows() {
  const queryClient = useQueryClient();
  // The files carry their workflow (full mode): their views change too.
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: workflowKeys.all }), queryClient.invalidateQueries({ queryKey: filesKeys.all })]);
}

export function useStartWorkflow() {
  const invalidate = useInvalidateWorkflows();
  return useMutation({
    mutationFn: (input: NewWorkflow) =>
      api.post<typeof workflowInstanceResponse>("/api/workflow/instance", {
        flux: { id: input.flux },
        properties: {
          objects: input.objects.map((id) => ({ type: "file", id })),
          validation: { interne: input.interne, externe: input.externe },
          comment: input.comment || undefined,
          send_copy: input.send_copy,
        },
      }),
    onSuccess: invalidate,
  });
}

/** A decision: by the mailed token (public page) or by the instance id (signed in). */
export function useDecideWorkflow(key: string | number) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateWorkflows();
  return useMutation({
    mutationFn: (input: { state: string; comment?: string }) =>
      api.post<typeof workflowInstanceResponse>(`/api/workflow/instance/${encodeURIComponent(String(key))}/transition`, { state: input.state, comment: input.comment || undefined }),
    onSuccess: (instance) => {
      // A mailed link's page keeps the answer: read again, a link its decision closed is a 410.
      if (typeof key === "string") queryClient.setQueryData(workflowKeys.public(key), instance);
      else return invalidate();
    },
  });
}

export function useCancelWorkflow() {
  const invalidate = useInvalidateWorkflows();
  return useMutation({ mutationFn: (id: number) => api.delete<typeof workflowInstanceResponse>(`/api/workflow/instance/${id}`), onSuccess: invalidate });
}

/** A short-lived file token to show or download one of the instance's documents. */
export const workflowDocumentToken = (key: string | number, fileId: number, type: "preview" | "download") =>
  api.post<typeof workflowTokenResponse>(`/api/workflow/instance/${encodeURIComponent(String(key))}/documents/${fileId}/${type}`, {}).then((r) => r.token);

/** A file in full mode, for its `workflow` field. */
export const fileWorkflowQuery = (versionId: number) =>
  queryOptions({
    queryKey: [...filesKeys.all, "workflow", versionId] as const,
    queryFn: async () => (await api.get<typeof fileResponse>(`/api/file/${versionId}?full=1`)).workflow ?? null,
  });
