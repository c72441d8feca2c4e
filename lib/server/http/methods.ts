import "server-only";
import { errorResponse } from "../errors";
import type { Handler } from "./route";

const VERBS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Verb = (typeof VERBS)[number];

/**
 * The methods a route file does not implement: PATCH as a synonym of PUT (api.md), and a
 * JSON 405 with `Allow` for the rest. Use: `export const { PATCH, POST, DELETE } = otherMethods({ GET, PUT })`.
 */
export function otherMethods(implemented: Partial<Record<Verb, Handler>>): Record<Verb, Handler> {
  const present = { ...implemented };
  if (present.PUT && !present.PATCH) present.PATCH = present.PUT;
  const allow = [...VERBS.filter((v) => present[v]), ...(present.GET ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const notAllowed: Handler = async (req) =>
    errorResponse(405, { error: `Method ${req.method} is not allowed here`, code: "method_not_allowed" }, { Allow: allow });
  return Object.fromEntries(VERBS.map((v) => [v, present[v] ?? notAllowed])) as Record<Verb, Handler>;
}
