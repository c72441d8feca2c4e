import "server-only";
import type { Access, Area } from "@/lib/contracts/scopes";

/**
 * The area of every `/api` path (api.md, "OAuth2"), by its first segments: one table to audit,
 * and a route added under a known prefix gets its area without anyone remembering to declare it.
 * A path no entry names belongs to no area: only a token with `all` may call it.
 * tests/api/oauth2/areas.test.ts walks every route file and fast path against this table.
 */
const AREA_OF: [RegExp, Area][] = [
  [/^\/api\/account\/(mfa|password|identity|sessions?|app_passwords?)(\/|$)/, "accountsec"],
  [/^\/api\/oauth2\/user(\/|$)/, "accountsec"],
  [/^\/api\/(account|auth|notifications?)(\/|$)/, "account"],
  [/^\/api\/(admin|config|stats|logs?|emails?|option|identity|oauth2)(\/|$)/, "admin"],
  [/^\/api\/signatures\/seal$/, "admin"],
  [/^\/api\/(annotations?)(\/|$)/, "annotations"],
  [/^\/api\/(archives?)(\/|$)/, "archives"],
  [/^\/api\/(groups?|delegates?)(\/|$)/, "groups"],
  [/^\/api\/(shares?|sharelinks?|zip\/share)(\/|$)/, "sharelinks"],
  [/^\/api\/token\/(share|sharelink)(\/|$)/, "sharelinks"],
  [/^\/api\/(ulinks?)(\/|$)/, "uploadlinks"],
  [/^\/api\/(trash|trashes)(\/|$)/, "trashes"],
  [/^\/api\/(users?|invites?|invite)(\/|$)/, "users"],
  [
    /^\/api\/(file|files|folder|folders|root|roots|objectpath|locks?|mixer|preview|quotas|rights?|alerts?|token|tus|tags?|template|signatures|signature-templates?|stars?|workflow|search)(\/|$)/,
    "files",
  ],
];

export function areaOf(pathname: string): Area | null {
  return AREA_OF.find(([pattern]) => pattern.test(pathname))?.[1] ?? null;
}

/** What a request needs of an OAuth2 token: its path's area, read for GET and HEAD, readwrite otherwise. */
export function neededScope(method: string, pathname: string): { area: Area; access: Access } | null {
  const area = areaOf(pathname);
  if (!area) return null;
  return { area, access: method === "GET" || method === "HEAD" ? "read" : "readwrite" };
}
