"use client";

import { useInfiniteQuery, useQueries, useQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { commentCountsQuery, type CommentCounts } from "@/lib/queries/details";
import { folderContentQuery, folderDetailsQuery, rootsQuery, searchQuery, type Item, type ListOrder, type Location, type SearchCriteria } from "@/lib/queries/files";
import { listedTagsQuery, type TagResponse } from "@/lib/queries/tags";
import type { Sort, SortColumn } from "./file-list";
import { sortItems } from "./sort-items";

/**
 * What the browser lists: the folder's pages (loaded as the list nears its end) or the search's
 * matches, in the order the server gives them for the chosen column, with each row's comment
 * counts and tags. The company and shared spaces' pseudo folders (one unpaged list of spaces) are
 * sorted here.
 */
export function useBrowserItems(location: Location, criteria: SearchCriteria, isSearching: boolean) {
  const roots = useQuery(rootsQuery());
  const privateRootId = roots.data?.find((r) => r.type === "private")?.id;
  const [sort, setSort] = useState<Sort>({ column: "name", direction: 1 });
  const toggleSort = (column: SortColumn) => setSort((s) => ({ column, direction: s.column === column ? (-s.direction as 1 | -1) : 1 }));
  const order: ListOrder = useMemo(() => ({ order: sort.column, direction: sort.direction === 1 ? "asc" : "desc" }), [sort]);
  const contentQuery = folderContentQuery(location, order);
  // A new order keeps the rows in view until the server's answer replaces them; another folder does not.
  const content = useInfiniteQuery({ ...contentQuery, placeholderData: (previous, query) => (query?.queryKey[2] === contentQuery.queryKey[2] ? previous : undefined) });
  const details = useQuery({ ...folderDetailsQuery(location), enabled: location.kind === "folder" });
  const folder = content.data?.pages[0]?.folder;
  const total = content.data?.pages.at(-1)?.total ?? 0;
  const results = useQuery({ ...searchQuery(privateRootId ?? 0, criteria, order), enabled: isSearching && privateRootId !== undefined });

  const loaded = useMemo(() => content.data?.pages.flatMap((p) => p.items) ?? [], [content.data]);
  const pseudo = location.kind === "space" && location.space !== "private";
  const items = useMemo(() => {
    if (isSearching) return results.data ?? [];
    return pseudo ? sortItems(loaded, sort) : loaded;
  }, [isSearching, results.data, loaded, pseudo, sort]);
  // Comment markers and tag chips: one small request per loaded page (full mode would also sum whole subtrees).
  const pages: Item[][] = isSearching ? [results.data ?? []] : (content.data?.pages.map((p) => p.items) ?? []);
  const comments = useQueries({
    queries: pages.map((rows) => commentCountsQuery(rows)),
    combine: (found) => new Map<string, CommentCounts>(found.flatMap((q) => (q.data ? [...q.data] : []))),
  });
  const rowTags = useQueries({
    queries: pages.map((rows) => listedTagsQuery(rows)),
    combine: (found) => new Map<string, TagResponse[]>(found.flatMap((q) => (q.data ? [...q.data] : []))),
  });

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = content;
  const loadMore = useCallback(() => {
    if (!isSearching && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [isSearching, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return { privateRootId, content, details, folder, total, results, sort, toggleSort, loaded, items, comments, rowTags, loadMore };
}
