import { API_ROUTES } from "../route-table";

/**
 * The contract's operations, for the OpenAPI document: every route file but the catch-alls (the
 * JSON 404, tus, next-auth) and this document itself, as OpenAPI paths (`[fileId]` → `{fileId}`).
 */
export const ROUTE_MODULES: { path: string; load: () => Promise<unknown> }[] = API_ROUTES.filter(
  ({ template }) => !template.includes("[...") && template !== "/api/openapi.json",
).map(({ template, load }) => ({ path: template.replace(/\[(\w+)\]/g, "{$1}"), load }));
