/** The areas of api.md ("OAuth2"): every `/api` route belongs to one (see api-areas.ts). */
export const AREAS = ["admin", "accountsec", "account", "annotations", "archives", "files", "groups", "sharelinks", "uploadlinks", "trashes", "users"] as const;
export type Area = (typeof AREAS)[number];
export type Access = "read" | "readwrite";

/** Every scope an application may be granted: `all`, `offline`, and a read and a readwrite scope per area. */
export const SCOPES: readonly string[] = ["all", "offline", ...AREAS.flatMap((area) => [`${area}.read`, `${area}.readwrite`])];
