import "server-only";
import type { Access, Area } from "@/lib/contracts/scopes";
import { AppError } from "../errors";

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
