"use client";

import { queryOptions, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { api, type Answer } from "@/lib/api-client";
import type { visitorResponse } from "@/lib/contracts/engagement";
import type { accessTokenResponse } from "@/lib/contracts/links";
import type { publicShareResponse, shareContentListResponse } from "@/lib/contracts/shares";
import type { publicUlinkResponse } from "@/lib/contracts/ulinks";
import { uploadInChunks } from "@/lib/upload-client/chunked-upload";

/** Public links: shares (/s/<key>) and drop links (/d/<key>), opened without an account. */
export type LinkKind = "share" | "ulink";

const storageKey = (kind: LinkKind, key: string) => `coffre.${kind}.${key}`;

/**
 * The access token a password or code unlocked, kept for this tab only (sessionStorage): it
 * lasts 2 hours for a share and 4 for a drop link on the server, and a closed tab forgets it.
 */
export const linkAccess = {
  get: (kind: LinkKind, key: string) => (typeof window === "undefined" ? null : sessionStorage.getItem(storageKey(kind, key))),
  set: (kind: LinkKind, key: string, token: string) => sessionStorage.setItem(storageKey(kind, key), token),
  clear: (kind: LinkKind, key: string) => sessionStorage.removeItem(storageKey(kind, key)),
};

/**
 * A public API path with the link's access token, when there is one (api.md: the `access_token`
 * parameter), and for a share opened from a personal address of an email share, its `r`, so the
 * owner's statistics credit that recipient.
 */
export function withAccess(path: string, kind: LinkKind, key: string): string {
  const params = new URLSearchParams();
  const token = linkAccess.get(kind, key);
  if (token) params.set("access_token", token);
  const recipient = kind === "share" && typeof window !== "undefined" ? new URLSearchParams(window.location.search).get("r") : null;
  if (recipient) params.set("r", recipient);
  const query = params.toString();
  return query ? `${path}${path.includes("?") ? "&" : "?"}${query}` : path;
}

const base = (kind: LinkKind, key: string) => `/api/${kind}/key/${encodeURIComponent(key)}`;

/** Password (or SMS code) → access token, stored for the tab. */
export async function unlockLink(kind: LinkKind, key: string, secret: { password?: string; code?: string }): Promise<void> {
  const { access_token } = await api.post<typeof accessTokenResponse>(`${base(kind, key)}/passcheck`, secret);
  linkAccess.set(kind, key, access_token);
}

/** Whether the share's visitor must pass its gate (email, agreement) before seeing anything. */
export const awaitsVisitor = (share: Pick<Answer<typeof publicShareResponse>, "gate">) => Boolean((share.gate.ask_email || share.gate.agreement) && !share.gate.visitor);

/**
 * POST …/visitor with the unlocking token if any: "sent" when a code was mailed; otherwise the
 * visitor's access token replaces the stored one (it unlocks the link too).
 */
export async function enterVisitor(key: string, input: { email?: string; code?: string; agreement_accepted?: 0 | 1 }): Promise<"sent" | "in"> {
  const answer = await api.post<typeof visitorResponse>(withAccess(`${base("share", key)}/visitor`, "share", key), input);
  if (!("access_token" in answer)) return "sent";
  linkAccess.set("share", key, answer.access_token);
  return "in";
}

export const publicLinkKeys = {
  all: ["public"] as const,
  link: (kind: LinkKind, key: string) => [...publicLinkKeys.all, kind, key] as const,
  shareContent: (key: string, folderId: number) => [...publicLinkKeys.link("share", key), "content", folderId] as const,
};

// A closed or locked link answers 4xx: shown at once, never retried.
export const publicShareQuery = (key: string) =>
  queryOptions({ queryKey: publicLinkKeys.link("share", key), queryFn: () => api.get<typeof publicShareResponse>(withAccess(base("share", key), "share", key)), retry: false });

/** A folder of a share (0: its top), once the share is unlocked. */
export const publicShareContentQuery = (key: string, folderId: number, enabled: boolean) =>
  queryOptions({
    queryKey: publicLinkKeys.shareContent(key, folderId),
    queryFn: () => api.get<typeof shareContentListResponse>(withAccess(`/api/share/content/${encodeURIComponent(key)}${folderId ? `/${folderId}` : ""}?nb_objects=1000`, "share", key)),
    enabled,
    retry: false,
  });

export const publicUlinkQuery = (key: string) =>
  queryOptions({ queryKey: publicLinkKeys.link("ulink", key), queryFn: () => api.get<typeof publicUlinkResponse>(withAccess(base("ulink", key), "ulink", key)), retry: false });

/** After an unlock: the link (and what it holds) is read again with its access token. */
export function useRefreshPublicLink(kind: LinkKind, key: string) {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: publicLinkKeys.link(kind, key) }), [queryClient, kind, key]);
}

export const sendLinkCode = (kind: LinkKind, key: string) => api.post(`${base(kind, key)}/sms`, {});

/** One file dropped through a drop link, in chunks (api.md: the deposit takes the parts of /file/upload), with the link's access token. */
/** Who deposits, when the link asks (the form's `depositorName` / `depositorEmail` parts, issue 29). */
export type Depositor = { name: string; email: string };

export const depositFile = (key: string, file: File, onProgress: (sent: number) => void, signal: AbortSignal, depositor?: Depositor) =>
  uploadInChunks({
    url: `${base("ulink", key)}/upload`,
    file,
    token: linkAccess.get("ulink", key),
    fields: depositor ? { depositorName: depositor.name.trim(), depositorEmail: depositor.email.trim() } : undefined,
    onProgress,
    signal,
  });
