"use client";

import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { PagesInput, sharePagesResponse, visitResponse } from "@/lib/contracts/engagement";
import { enterVisitor, linkAccess, publicLinkKeys, withAccess } from "./public-links";

/**
 * The page-by-page viewer of a share link (issue 30, api.md "Document engagement on link shares"):
 * the visitor's identity, the visit, the pages as images and the visible time per page.
 */

const base = (key: string) => `/api/share/key/${encodeURIComponent(key)}`;
const visitorMark = (key: string) => `coffre.share.${key}.visitor`;

/** The pages of a shared file; an office document still converting answers `ready: false`, asked again every 5 s. */
export const sharePagesQuery = (key: string, fileId: number, enabled: boolean) =>
  queryOptions({
    queryKey: [...publicLinkKeys.link("share", key), "pages", fileId] as const,
    queryFn: () => api.get<typeof sharePagesResponse>(withAccess(`${base(key)}/file/${fileId}/pages`, "share", key)),
    enabled,
    retry: false,
    refetchInterval: (query) => (query.state.data && !query.state.data.ready ? 5_000 : false),
  });

/** One page as the server renders it (an image, never the original bytes), `width` pixels on its longer side, with the visitor's access token. */
export const sharePageImageUrl = (key: string, fileId: number, page: number, width: 800 | 1200 | 1600 = 1600) =>
  withAccess(`${base(key)}/file/${fileId}/page/${page}?w=${width}`, "share", key);

/** The sizes the server renders a page at, for `srcSet`: phones take the smaller ones. */
export const sharePageImageSet = (key: string, fileId: number, page: number) =>
  ([800, 1200, 1600] as const).map((w) => `${sharePageImageUrl(key, fileId, page, w)} ${w}w`).join(", ");

/**
 * The visitor the viewer records for: the one the gate identified (the share's `gate.visitor`), or
 * the one this tab already made anonymous; else a new anonymous visitor (`POST …/visitor {}`),
 * whose access token replaces the link's, where withAccess reads it.
 */
export async function ensureShareVisitor(key: string, identified: boolean): Promise<void> {
  const token = linkAccess.get("share", key);
  if (identified || (token && sessionStorage.getItem(visitorMark(key)) === token)) return;
  await enterVisitor(key, {});
  sessionStorage.setItem(visitorMark(key), linkAccess.get("share", key) ?? "");
}

/** A visit of one file: its page times are sent to it. */
export async function openShareVisit(key: string, fileId: number): Promise<number> {
  const { visit_id } = await api.post<typeof visitResponse>(withAccess(`${base(key)}/visits`, "share", key), { file_id: fileId });
  return visit_id;
}

const visitPagesPath = (key: string, visitId: number) => `${base(key)}/visits/${visitId}/pages`;

/** Page times while the viewer is open (every 10 s, and as it closes: keepalive). */
export const sendPageTimes = (key: string, visitId: number, pages: PagesInput["pages"]) =>
  api.post(withAccess(visitPagesPath(key, visitId), "share", key), { pages }, { keepalive: true });

/**
 * Page times as the page goes away (tab hidden, page left): a beacon, which the browser delivers
 * after the page is gone; it carries no header, so the access token travels in the address
 * (api.md: the `access_token` parameter). False when the browser refused to queue it.
 */
export function beaconPageTimes(key: string, visitId: number, pages: PagesInput["pages"]): boolean {
  if (typeof navigator === "undefined" || typeof navigator.sendBeacon !== "function") return false;
  return navigator.sendBeacon(withAccess(visitPagesPath(key, visitId), "share", key), new Blob([JSON.stringify({ pages })], { type: "application/json" }));
}
