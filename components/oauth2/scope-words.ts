import type { MessageKey, Translate } from "@/lib/i18n/translate";

/** The areas of api.md ("OAuth2"), as the web client names them (lib/server/auth/scopes.ts is server-side). */
export const OAUTH2_AREAS = ["files", "annotations", "sharelinks", "uploadlinks", "trashes", "archives", "account", "accountsec", "groups", "users", "admin"] as const;

/** A scope in plain words: "See and change your files and folders". */
export function describeScope(scope: string, t: Translate): string {
  if (scope === "all") return t("oauth2.scope.all");
  if (scope === "offline") return t("oauth2.scope.offline");
  const [area, access] = scope.split(".");
  if (!(OAUTH2_AREAS as readonly string[]).includes(area) || (access !== "read" && access !== "readwrite")) return scope;
  return t(`oauth2.access.${access}`, { area: t(`oauth2.area.${area}` as MessageKey) });
}

/** Plain words for every scope of a space-separated list, `offline` last. */
export function describeScopes(scope: string, t: Translate): string[] {
  const scopes = scope.split(/\s+/).filter(Boolean);
  return [...scopes.filter((s) => s !== "offline"), ...scopes.filter((s) => s === "offline")].map((s) => describeScope(s, t));
}
