import { AppError } from "../errors";

/** The areas of api.md ("OAuth2"): every `/api` route belongs to one (see api-areas.ts). */
export const AREAS = ["admin", "accountsec", "account", "annotations", "archives", "files", "groups", "sharelinks", "uploadlinks", "trashes", "users"] as const;
export type Area = (typeof AREAS)[number];
export type Access = "read" | "readwrite";

/** Every scope an application may be granted: `all`, `offline`, and a read and a readwrite scope per area. */
export const SCOPES: readonly string[] = ["all", "offline", ...AREAS.flatMap((area) => [`${area}.read`, `${area}.readwrite`])];

export function parseScope(scope: string): Set<string> {
  return new Set(scope.split(/\s+/).filter(Boolean));
}

/** `all`, the area's readwrite scope, or its read scope for reading. */
export function scopeAllows(granted: Set<string>, area: Area, access: Access): boolean {
  return granted.has("all") || granted.has(`${area}.readwrite`) || (access === "read" && granted.has(`${area}.read`));
}

/**
 * Refuses a scoped token (an OAuth2 access token) whose scopes do not cover `needed`, with the
 * RFC 6750 challenge naming the scope to ask for. Sign-in sessions carry no scope and pass.
 */
export function assertScope(scope: string | null, needed: { area: Area; access: Access } | null) {
  if (scope === null) return;
  const granted = parseScope(scope);
  if (needed && scopeAllows(granted, needed.area, needed.access)) return;
  const wanted = needed ? `${needed.area}.${needed.access}` : "all";
  throw new AppError("insufficient_scope", `This token's scopes do not include ${wanted}`, { scope: wanted }, {
    "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${wanted}"`,
  });
}
