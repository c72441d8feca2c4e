import "server-only";
import { SCOPES } from "@/lib/contracts/scopes";
import { neededScope } from "../http/api-areas";
import type { Auth, Handler } from "../http/route";
import { jsonSchema } from "./json-schema";
import { RAW_OPERATIONS, type RawOperation } from "./raw-operations";

/** The route files of app/api, each with a loader of its module (app/api/openapi.json/route-modules.ts, generated). */
export type RouteModule = { path: string; load: () => Promise<unknown> };
type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * The OpenAPI 3.1 document of the API (api.md, "Machine-readable contract"), built from what the
 * routes validate with: each route file's route() spec (auth, zod params, query and body) gives
 * an operation, the path's area gives its OAuth2 scope, and the operations that read their body
 * raw (uploads, tus, downloads on the server in front of Next) are described in raw-operations.ts.
 * JSON Schemas come from zod's own converter, on the input side (what a client sends).
 */
export async function buildOpenApiDocument(routeModules: readonly RouteModule[]) {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const { path, load } of routeModules) {
    const mod = (await load()) as Record<string, Handler | undefined>;
    for (const method of METHODS) {
      const spec = mod[method]?.spec;
      if (!spec) continue;
      const raw = RAW_OPERATIONS.find((op) => op.path === path && op.method === method);
      (paths[path] ??= {})[method.toLowerCase()] = operation(path, method, spec.auth ?? "user", spec, raw);
    }
  }
  for (const raw of RAW_OPERATIONS.filter((op) => !op.fromRoute)) {
    (paths[raw.path] ??= {})[raw.method.toLowerCase()] = operation(raw.path, raw.method, raw.auth, {}, raw);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Coffre API",
      version: "1",
      description: "Files, folders, versions, sharing, drop links, collaboration and administration. Errors share one body: `{error, code, details?}`. See /docs/api.",
    },
    // Relative: the server that served the document, whatever address or proxy it was reached through.
    servers: [{ url: "/" }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A token from `POST /api/auth`, or an OAuth2 access token." },
        oauth2: {
          type: "oauth2",
          description: "OAuth2 applications (api.md, \"OAuth2\"): `<area>.read` for GET and HEAD, `<area>.readwrite` otherwise.",
          flows: {
            authorizationCode: { authorizationUrl: "/oauth2/authorize", tokenUrl: "/oauth2/token", refreshUrl: "/oauth2/token", scopes: SCOPE_WORDS },
            clientCredentials: { tokenUrl: "/oauth2/token", scopes: SCOPE_WORDS },
          },
        },
      },
    },
  };
}

const SCOPE_WORDS: Record<string, string> = Object.fromEntries(
  SCOPES.map((scope) => {
    if (scope === "all") return [scope, "Everything the user may do"];
    if (scope === "offline") return [scope, "Tokens that do not expire and may be refreshed"];
    const [area, access] = scope.split(".");
    return [scope, `${access === "read" ? "Read" : "Read and change"} ${area}`];
  }),
);

const ERROR_SCHEMA = {
  type: "object",
  required: ["error", "code"],
  properties: { error: { type: "string" }, code: { type: "string" }, details: {} },
};
const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });

function operation(path: string, method: string, auth: Auth, spec: { params?: unknown; query?: unknown; body?: unknown }, raw?: RawOperation): Operation {
  const parameters = [...parametersOf(spec.params, "path"), ...parametersOf(spec.query, "query"), ...(auth === "link" ? LINK_PARAMETERS : [])];
  // A path parameter the spec does not parse (tus, downloads) is still part of the path.
  for (const name of path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? []) {
    if (!parameters.some((p) => p.in === "path" && p.name === name)) parameters.push({ name, in: "path", required: true, schema: { type: "string" } });
  }
  const scope = neededScope(method, path);
  const op: Operation = {
    operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, "").replace(/(^|[/_.-])(\w)/g, (_, __, c: string) => c.toUpperCase())}`,
    tags: [path.split("/")[2] ?? "api"],
    summary: raw?.summary,
    parameters: parameters.length ? parameters : undefined,
    security: securityFor(auth, scope ? `${scope.area}.${scope.access}` : null),
    responses: {
      ...(raw?.responses ?? { "200": { description: "Success", content: { "application/json": { schema: {} } } }, "204": { description: "Success, no content" } }),
      "400": errorResponse("Invalid request (the details name the fields)"),
      ...(auth === "none" ? {} : auth === "link" ? LINK_REFUSALS : { "401": errorResponse("Missing, unknown or expired token"), "403": errorResponse("Not allowed, or the OAuth2 token lacks the scope") }),
      "404": errorResponse("Not found"),
    },
  };
  const body = raw?.requestBody ?? (spec.body ? { required: true, content: { "application/json": { schema: jsonSchema(spec.body) } } } : undefined);
  if (body) op.requestBody = body;
  return op;
}

/** A link's visitor has no account: its `access_token` (Bearer or query) comes from the link's passcheck. */
const LINK_REFUSALS = {
  "401": errorResponse("A protected link without a live access_token of its own"),
  "410": errorResponse("The link has expired or served its single download"),
};

const LINK_PARAMETERS: Parameter[] = [
  { name: "access_token", in: "query", required: false, schema: { type: "string" }, description: "What passcheck returned, when the link is protected (or `Authorization: Bearer`)" },
  { name: "r", in: "query", required: false, schema: { type: "string" }, description: "The recipient key of an email share's personal address" },
];

function securityFor(auth: Auth, scope: string | null) {
  if (auth === "none" || auth === "link") return [];
  const schemes = [{ bearer: [] }, { oauth2: scope ? [scope] : ["all"] }];
  return auth === "optional" ? [{}, ...schemes] : schemes;
}

type Parameter = { name: string; in: "path" | "query"; required: boolean; schema: JsonSchema; description?: string };

/** One parameter per property of an object schema (refined or piped objects included). */
function parametersOf(schema: unknown, where: "path" | "query"): Parameter[] {
  if (!schema) return [];
  const object = jsonSchema(schema);
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: where, required: where === "path" || required.has(name), schema: property }));
}

