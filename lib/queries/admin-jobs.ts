"use client";

import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { jobListResponse, JobResponse, jobResponse } from "@/lib/contracts/jobs";
import { queryString } from "./admin-envelope";

export type Job = JobResponse;
export type JobFilter = { status: string; offset: number; limit: number };

export const adminJobsKeys = {
  all: ["admin", "jobs"] as const,
  list: (filter: JobFilter) => [...adminJobsKeys.all, filter] as const,
};

/** GET /api/admin/jobs: `status` a comma list (pending,running,failed by default). */
export const jobsQuery = (filter: JobFilter) =>
  queryOptions({
    queryKey: adminJobsKeys.list(filter),
    queryFn: () => api.get<typeof jobListResponse>(`/api/admin/jobs${queryString({ status: filter.status, offset_start: filter.offset, nb_objects: filter.limit })}`),
    placeholderData: keepPreviousData,
  });

/** Retrying or discarding changes the queue, the dashboard's "needs attention" and the outbox. */
function useInvalidateJobs() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: adminJobsKeys.all }), queryClient.invalidateQueries({ queryKey: ["admin", "mail"] })]);
}

export function useRetryJob() {
  const invalidate = useInvalidateJobs();
  return useMutation({ mutationFn: (id: number) => api.post<typeof jobResponse>(`/api/admin/job/${id}/retry`), onSettled: invalidate });
}

export function useDiscardJob() {
  const invalidate = useInvalidateJobs();
  return useMutation({ mutationFn: (id: number) => api.delete(`/api/admin/job/${id}`), onSettled: invalidate });
}
