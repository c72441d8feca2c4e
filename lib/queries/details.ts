"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { api } from "@/lib/api-client";
import type { annotationListResponse, AnnotationResponse, annotationResponse, countsResponse } from "@/lib/contracts/annotations";
import type { FileResponse, fileResponse, fileVersionsResponse } from "@/lib/contracts/files";
import type { invitableUserListResponse, invitationListResponse } from "@/lib/contracts/invitations";
import type { RightResponse, rightResponse, rightsListResponse } from "@/lib/contracts/rights";
import type { textStateResponse } from "@/lib/contracts/texts";
import type { fileTimelineResponse, folderTimelineResponse, TimelineEventResponse } from "@/lib/contracts/timelines";
import { filesKeys } from "./files";

export type { AnnotationResponse, RightResponse };
export type Target = { type: "file" | "folder"; id: number };
export type { TimelineEventResponse };

export const detailsKeys = {
  all: [...filesKeys.all, "details-panel"] as const,
  versions: (fileId: number) => [...detailsKeys.all, "versions", fileId] as const,
  comments: (t: Target) => [...detailsKeys.all, "comments", t.type, t.id] as const,
  timeline: (t: Target) => [...detailsKeys.all, "timeline", t.type, t.id] as const,
  rights: (folderId: number) => [...detailsKeys.all, "rights", folderId] as const,
  invitable: (folderId: number, search: string) => [...detailsKeys.all, "invitable", folderId, search] as const,
  invitations: (folderId: number) => [...detailsKeys.all, "invitations", folderId] as const,
  allCounts: () => [...detailsKeys.all, "counts"] as const,
  counts: (ids: string) => [...detailsKeys.allCounts(), ids] as const,
};

export type CommentCounts = { total: number; unread: number };

/**
 * The comment counts of listed rows (one request per page of the list), keyed like the rows:
 * "file:<id>" and "folder:<id>" of the ids the server was given.
 */
export const commentCountsQuery = (rows: { kind: "file" | "folder"; id: number }[]) => {
  const files = rows.filter((r) => r.kind === "file").map((r) => r.id);
  const folders = rows.filter((r) => r.kind === "folder").map((r) => r.id);
  const ids = `files=${files.join(",")}&folders=${folders.join(",")}`;
  return queryOptions({
    queryKey: detailsKeys.counts(ids),
    queryFn: async () => {
      const found = await api.get<typeof countsResponse>(`/api/annotations/counts?${ids}`);
      const byRow = new Map<string, CommentCounts>();
      for (const [id, c] of Object.entries(found.files)) byRow.set(`file:${id}`, c);
      for (const [id, c] of Object.entries(found.folders)) byRow.set(`folder:${id}`, c);
      return byRow;
    },
    enabled: rows.length > 0,
    staleTime: 30_000,
  });
};

export const versionsQuery = (fileId: number) =>
  queryOptions({ queryKey: detailsKeys.versions(fileId), queryFn: () => api.get<typeof fileVersionsResponse>(`/api/file/${fileId}/versions`) });

/** Every annotation of a target, oldest first, so replies follow what they answer. */
export const commentsQuery = (target: Target) =>
  queryOptions({
    queryKey: detailsKeys.comments(target),
    queryFn: async () => {
      const page = await api.get<typeof annotationListResponse>(`/api/annotations/${target.id}/${target.type}?nb_objects=1000`);
      return [...page.objects].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
    },
  });

export const fileTimelineQuery = (fileId: number) =>
  queryOptions({ queryKey: detailsKeys.timeline({ type: "file", id: fileId }), queryFn: () => api.get<typeof fileTimelineResponse>(`/api/file/${fileId}/timeline`) });

export const folderTimelineQuery = (folderId: number) =>
  queryOptions({ queryKey: detailsKeys.timeline({ type: "folder", id: folderId }), queryFn: () => api.get<typeof folderTimelineResponse>(`/api/folder/${folderId}/timeline`) });

export const rightsQuery = (folderId: number) =>
  queryOptions({ queryKey: detailsKeys.rights(folderId), queryFn: () => api.get<typeof rightsListResponse>(`/api/rights/${folderId}`) });

/** People and groups who could be given access to a folder (the server wants 3 characters). */
export const invitableQuery = (folderId: number, search: string) =>
  queryOptions({
    queryKey: detailsKeys.invitable(folderId, search),
    queryFn: async () => (await api.get<typeof invitableUserListResponse>(`/api/invite/users/${folderId}?search=${encodeURIComponent(search)}&nb_objects=10`)).objects,
    enabled: search.trim().length >= 3,
  });

/** Listing a target's comments marks them read: the list's comment markers are fetched again. */
export function useRefreshCommentCounts() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: detailsKeys.allCounts() }), [queryClient]);
}

/** Anything the panel shows, and the lists around it (a restored version changes the row). */
function useInvalidateDetails() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: filesKeys.all });
}

/** An older version becomes the newest: POST /file with its hash clones it (the contract's 200). */
export function useRestoreVersion() {
  const invalidate = useInvalidateDetails();
  return useMutation({
    mutationFn: (version: FileResponse) => api.post<typeof fileResponse>("/api/file", { name: version.name, parent_id: version.parent_id, hash: version.hash }),
    onSuccess: invalidate,
  });
}

export function useAddComment(target: Target) {
  const invalidate = useInvalidateDetails();
  return useMutation({
    mutationFn: (input: { text: string; conversation?: number }) =>
      api.post<typeof annotationResponse>("/api/annotation", { target_id: target.id, target_type: target.type, text: input.text, conversation: input.conversation }),
    onSuccess: invalidate,
  });
}

export function useDeleteComment() {
  const invalidate = useInvalidateDetails();
  return useMutation({ mutationFn: (id: number) => api.delete(`/api/annotation/${id}`), onSuccess: invalidate });
}

export function useSetLock() {
  const invalidate = useInvalidateDetails();
  return useMutation({
    mutationFn: (input: { fileId: number; locked: boolean }) => (input.locked ? api.put(`/api/lock/${input.fileId}`, {}) : api.delete(`/api/lock/${input.fileId}`)),
    onSuccess: invalidate,
  });
}

export type RightFlags = Pick<RightResponse, "browse" | "read" | "download" | "write" | "edit" | "delete" | "share">;

export function useGrantRight(folderId: number) {
  const invalidate = useInvalidateDetails();
  return useMutation({
    mutationFn: (input: { targetId: string; flags: RightFlags; recursive: boolean }) =>
      api.post<typeof rightResponse>(`/api/right${input.recursive ? "?recursive=1" : ""}`, { folder_id: folderId, target_id: input.targetId, ...input.flags }),
    onSuccess: invalidate,
  });
}

/** GET /invites/(folderId): the folder's invitations, whoever sent them (needs the share right). */
export const folderInvitationsQuery = (folderId: number) =>
  queryOptions({ queryKey: detailsKeys.invitations(folderId), queryFn: () => api.get<typeof invitationListResponse>(`/api/invites/${folderId}`) });

/** POST /invite: an outside address gets an invitation mail to this folder (read and download until changed). */
export function useInviteToFolder(folderId: number) {
  const invalidate = useInvalidateDetails();
  return useMutation({ mutationFn: (email: string) => api.post("/api/invite", { target: email, folder: folderId, rights: 1 | 2 }), onSuccess: invalidate });
}

export function useUpdateRight() {
  const invalidate = useInvalidateDetails();
  return useMutation({
    mutationFn: (input: { rightId: number; flags: Partial<RightFlags>; recursive: boolean }) =>
      api.put<typeof rightResponse>(`/api/right/${input.rightId}${input.recursive ? "?recursive=1" : ""}`, input.flags),
    onSuccess: invalidate,
  });
}

export function useRemoveRight() {
  const invalidate = useInvalidateDetails();
  return useMutation({
    mutationFn: (input: { rightId: number; recursive: boolean }) => api.delete(`/api/right/${input.rightId}${input.recursive ? "?recursive=1" : ""}`),
    onSuccess: invalidate,
  });
}

/** Where the searchable text of a file's current version stands (GET /file/(id)/text). */
export const fileTextQuery = (fileId: number) =>
  queryOptions({
    queryKey: [...filesKeys.all, "text", fileId] as const,
    queryFn: () => api.get<typeof textStateResponse>(`/api/file/${fileId}/text`),
    // OCR goes page by page: the panel follows it while it runs.
    refetchInterval: (query) => (["pending", "preparing"].includes(query.state.data?.state ?? "") ? 5000 : false),
  });
