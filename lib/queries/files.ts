"use client";

import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { fileActivityResponse, FileResponse, fileResponse } from "@/lib/contracts/files";
import type { FileTypeFilter, FolderResponse, folderResponse, folderSearchResponse, ListingOrder, rootsResponse } from "@/lib/contracts/folders";
import type { TrashItemResponse, trashItemResponse } from "@/lib/contracts/trash";
import { trashKeys } from "./trash";

export type { FileResponse, FolderResponse };
export type SpaceType = "private" | "company" | "shared";
/** Where the browser is: a space's root (read through /api/root) or a folder by id. */
export type Location = { kind: "space"; space: SpaceType } | { kind: "folder"; id: number };
/** One row of the browser: a folder or a file, told apart by `kind`. */
export type Item = ({ kind: "folder" } & FolderResponse) | ({ kind: "file" } & FileResponse);

/** Rows fetched per page while scrolling (the server caps nb_objects at 1000). */
export const PAGE_SIZE = 100;

const locationKey = (at: Location) => (at.kind === "space" ? `space:${at.space}` : `folder:${at.id}`);
const locationPath = (at: Location) => (at.kind === "space" ? `/api/root/${at.space}` : `/api/folder/${at.id}`);

export const filesKeys = {
  all: ["files"] as const,
  roots: () => [...filesKeys.all, "roots"] as const,
  content: (at: Location, order?: ListOrder) => [...filesKeys.all, "content", locationKey(at), ...(order ? [orderParams(order)] : [])] as const,
  details: (at: Location) => [...filesKeys.all, "details", locationKey(at)] as const,
  tree: (folderId: number | "company" | "shared") => [...filesKeys.all, "tree", folderId] as const,
  search: (scopeId: number, label: string) => [...filesKeys.all, "search", scopeId, label] as const,
  activity: () => [...filesKeys.all, "activity"] as const,
  file: (fileId: number | undefined) => [...filesKeys.all, "file", fileId] as const,
};

export const rootsQuery = () =>
  queryOptions({ queryKey: filesKeys.roots(), queryFn: () => api.get<typeof rootsResponse>("/api/roots"), staleTime: 300_000 });

/** One file (GET /file/(fileId)); nothing is asked while `fileId` is unknown. */
export const fileQuery = (fileId: number | undefined) =>
  queryOptions({ queryKey: filesKeys.file(fileId), queryFn: () => api.get<typeof fileResponse>(`/api/file/${fileId}`), enabled: fileId !== undefined });

type Page = { folder: FolderResponse; items: Item[]; total: number; offset: number };

/** The order a listing or a search is asked in (the server orders and pages; folders come first). */
export type ListOrder = { order: ListingOrder; direction: "asc" | "desc" };
const orderParams = (o: ListOrder) => `order=${o.order}&direction=${o.direction}`;

const toItems = (content: FolderResponse["content"]): Item[] => [
  ...(content?.folders ?? []).map((f) => ({ ...f, kind: "folder" as const })),
  ...(content?.files ?? []).map((f) => ({ ...f, kind: "file" as const })),
];

/**
 * A folder's first level, PAGE_SIZE items at a time. The pseudo folders of the company and shared
 * spaces are not paged by the server, so they come as one page.
 */
export const folderContentQuery = (at: Location, order: ListOrder = { order: "name", direction: "asc" }) =>
  infiniteQueryOptions({
    queryKey: filesKeys.content(at, order),
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<Page> => {
      const folder = await api.get<typeof folderResponse>(`${locationPath(at)}?depth=0&offset_start=${pageParam}&nb_objects=${PAGE_SIZE}&${orderParams(order)}`);
      const items = toItems(folder.content);
      return { folder, items, offset: pageParam, total: folder.content_total ?? items.length };
    },
    getNextPageParam: (last) => {
      const next = last.offset + last.items.length;
      return last.items.length > 0 && next < last.total ? next : undefined;
    },
  });

/** The folder itself in full mode, for its path (breadcrumbs), without its content. */
export const folderDetailsQuery = (at: Location) =>
  queryOptions({
    queryKey: filesKeys.details(at),
    queryFn: () => api.get<typeof folderResponse>(`${locationPath(at)}?full=1&nb_objects=0`),
  });

/** The sub-folders of one folder, for the folder picker (folders only: filter=1). */
export const folderTreeQuery = (folderId: number | "company" | "shared") =>
  queryOptions({
    queryKey: filesKeys.tree(folderId),
    queryFn: async () => {
      const path = typeof folderId === "number" ? `/api/folder/${folderId}` : `/api/root/${folderId}`;
      const folder = await api.get<typeof folderResponse>(`${path}?depth=0&filter=1`);
      return folder.content?.folders ?? [];
    },
  });

/** What a search looks for: words (in names, and in content and comments when asked), dates, sizes, tags, a kind, an owner. */
export type SearchCriteria = {
  label: string;
  inContent?: boolean;
  inComments?: boolean;
  /** Days, yyyy-mm-dd, in the browser's time zone. */
  modifiedAfter?: string;
  modifiedBefore?: string;
  /** Bytes. */
  minSize?: number;
  maxSize?: number;
  /** Tag ids: every one must be on a match. */
  tags?: number[];
  /** Files of this kind only (folders are left out). */
  type?: FileTypeFilter;
  /** What this user owns. */
  ownerId?: number;
};

export const hasCriteria = (c: SearchCriteria) =>
  c.label.trim().length > 0 || Boolean(c.modifiedAfter || c.modifiedBefore || c.minSize !== undefined || c.maxSize !== undefined || c.tags?.length || c.type || c.ownerId !== undefined);

/** The contract's search parameters (dates as `@<unix seconds>`). */
function searchParams(c: SearchCriteria): URLSearchParams {
  const params = new URLSearchParams({ recursive: "1", global: "1" });
  const label = c.label.trim();
  if (label) {
    params.set("search_label", label);
    params.set("in_name", "1");
    if (c.inContent) params.set("in_content", "1");
    if (c.inComments) params.set("in_annotations", "1");
  }
  const unix = (day: string, endOfDay: boolean) => `@${Math.floor(new Date(`${day}T${endOfDay ? "23:59:59" : "00:00:00"}`).getTime() / 1000)}`;
  if (c.modifiedAfter) params.set("modification_start", unix(c.modifiedAfter, false));
  if (c.modifiedBefore) params.set("modification_end", unix(c.modifiedBefore, true));
  if (c.minSize !== undefined) params.set("size_start", String(c.minSize));
  if (c.maxSize !== undefined) params.set("size_end", String(c.maxSize));
  if (c.tags?.length) params.set("tags", c.tags.join(","));
  if (c.type) params.set("types", c.type);
  if (c.ownerId !== undefined) params.set("owner_id", String(c.ownerId));
  return params;
}

/** Matches in every space the caller may browse (global=1). */
export const searchQuery = (scopeId: number, criteria: SearchCriteria, order: ListOrder = { order: "name", direction: "asc" }) =>
  queryOptions({
    queryKey: filesKeys.search(scopeId, `${searchParams(criteria)}&${orderParams(order)}`),
    // A search answers its matches on one level, {folders, files}, not wrapped in a folder.
    queryFn: async () => {
      const found = await api.get<typeof folderSearchResponse>(`/api/folder/${scopeId}?${searchParams(criteria)}&${orderParams(order)}`);
      return toItems(found);
    },
    enabled: hasCriteria(criteria),
  });

/** GET /api/file/activity: the files the caller touched lately. */
export const activityQuery = () =>
  queryOptions({
    queryKey: filesKeys.activity(),
    queryFn: () => api.get<typeof fileActivityResponse>("/api/file/activity?nb_objects=100").then((r) => r.objects),
  });

const itemPath = (item: Pick<Item, "kind" | "id">) => `/api/${item.kind}/${item.id}`;

/** Any change below the file tree: content lists, pickers, search results, the trash. */
function useInvalidateFiles() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: filesKeys.all }), queryClient.invalidateQueries({ queryKey: trashKeys.all })]);
}

export function useCreateFolder() {
  const invalidate = useInvalidateFiles();
  return useMutation({
    mutationFn: (input: { name: string; parentId: number }) => api.post<typeof folderResponse>("/api/folder", { name: input.name, parent_id: input.parentId }),
    onSuccess: invalidate,
  });
}

export function useRenameItem() {
  const invalidate = useInvalidateFiles();
  return useMutation({
    mutationFn: (input: { item: Item; name: string }) => api.put(itemPath(input.item), { name: input.name }),
    onSuccess: invalidate,
  });
}

/** Moves each item in turn; stops at the first refusal, leaving the ones already moved where they went. */
export function useMoveItems() {
  const invalidate = useInvalidateFiles();
  return useMutation({
    mutationFn: async (input: { items: Item[]; parentId: number }) => {
      for (const item of input.items) await api.put(itemPath(item), { parent_id: input.parentId });
    },
    onSettled: invalidate,
  });
}

export function useCopyItems() {
  const invalidate = useInvalidateFiles();
  return useMutation({
    mutationFn: async (input: { items: Item[]; parentId: number }) => {
      for (const item of input.items) {
        const body = item.kind === "file" ? { name: item.name, parent_id: input.parentId } : { parent_id: input.parentId };
        await api.post(`/api/${item.kind}?copy=${item.id}`, body);
      }
    },
    onSettled: invalidate,
  });
}

/** Sends items to the trash; the answer lists the trash items, which an undo restores. */
export function useDeleteItems() {
  const invalidate = useInvalidateFiles();
  return useMutation({
    mutationFn: async (items: Item[]) => {
      const trashed: TrashItemResponse[] = [];
      for (const item of items) trashed.push(await api.delete<typeof trashItemResponse>(itemPath(item)));
      return trashed;
    },
    onSettled: invalidate,
  });
}

/** The file's latest version as an attachment: a plain navigation, so the browser streams it to disk. */
export const downloadUrl = (file: Pick<FileResponse, "id">) => `/api/file/${file.id}/download?latest=1`;

/** After an upload finished (or folders were created for one). */
export const useRefreshFiles = useInvalidateFiles;
