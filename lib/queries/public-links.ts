"use client";

import { api } from "@/lib/api-client";

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
  const { access_token } = await api.post<{ access_token: string }>(`${base(kind, key)}/passcheck`, secret);
  linkAccess.set(kind, key, access_token);
}

export const sendLinkCode = (kind: LinkKind, key: string) => api.post<unknown>(`${base(kind, key)}/sms`, {});
