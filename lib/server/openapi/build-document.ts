import "server-only";
import { SCOPES } from "@/lib/contracts/scopes";
import { neededScope } from "../http/api-areas";
import type { Auth, Handler } from "../http/route";
import { BODY_EXAMPLES } from "./examples";
import { OPERATION_NOTES } from "./operation-notes";
import { callerHeaders, LINK_PARAMETERS, parametersOf, type Parameter } from "./parameters";
import { RAW_OPERATIONS, type RawOperation } from "./raw-operations";
import { errorResponses, ERROR_SCHEMA, successResponses } from "./responses";
import { SchemaBook } from "./schema-book";
import { TAG_LIST, tagOf } from "./tags";

/** The route files of app/api, each with a loader of its module (app/api/openapi.json/route-modules.ts, generated). */
export type RouteModule = { path: string; load: () => Promise<unknown> };
type Operation = Record<string, unknown>;
type Spec = NonNullable<Handler["spec"]>;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * The OpenAPI 3.1 document of the API (api.md, "Machine-readable contract"), built from what the
 * routes validate with and answer: each route file's route() spec (auth, zod params, query, body
 * and response) gives an operation, the path's area its OAuth2 scope, the services' AppError codes
 * its summary and error statuses (operation-notes.ts, generated), and the operations that read their body raw
 * (uploads, tus, downloads on the server in front of Next) are completed in raw-operations.ts.
 */
export async function buildOpenApiDocument(routeModules: readonly RouteModule[]) {
  const book = new SchemaBook();
  const paths: Record<string, Record<string, Operation>> = {};
  for (const { path, load } of routeModules) {
    const mod = (await load()) as Record<string, Handler | undefined>;
    for (const method of METHODS) {
      const spec = mod[method]?.spec;
      if (!spec) continue;
      // PATCH as PUT's synonym (methods.ts) is the same operation, with the same notes.
      const as = method === "PATCH" && mod.PATCH === mod.PUT ? "PUT" : method;
      const raw = RAW_OPERATIONS.find((op) => op.path === path && op.method === as);
      (paths[path] ??= {})[method.toLowerCase()] = operation(book, path, method, spec, raw, `${as} ${path}`);
    }
  }
  for (const raw of RAW_OPERATIONS.filter((op) => !op.fromRoute)) {
    (paths[raw.path] ??= {})[raw.method.toLowerCase()] = operation(book, raw.path, raw.method, { auth: raw.auth, params: raw.params, query: raw.query }, raw, `${raw.method} ${raw.path}`);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Coffre API",
      version: "1",
      description:
        "Files, folders, versions, sharing, drop links, collaboration and administration. Authenticate with `Authorization: Bearer <token>` (from `POST /api/auth`, an app password, or OAuth2). Lists carry `offset_start`, `nb_objects`, `nb_total_objects` and `objects`. Errors share one body: `{error, code, details?}`. See /docs/api.",
    },
    // Relative: the server that served the document, whatever address or proxy it was reached through.
    servers: [{ url: "/" }],
    tags: TAG_LIST,
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: { Error: ERROR_SCHEMA, ...Object.fromEntries(Object.entries(book.components).sort(([a], [b]) => a.localeCompare(b))) },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A token from `POST /api/auth`, an app password, or an OAuth2 access token." },
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

function operation(book: SchemaBook, path: string, method: string, spec: Spec, raw: RawOperation | undefined, key: string): Operation {
  const auth: Auth = spec.auth ?? raw?.auth ?? "user";
  const parameters: Parameter[] = [
    ...parametersOf(spec.params ?? raw?.params, "path"),
    ...parametersOf(spec.query ?? raw?.query, "query"),
    ...(auth === "link" ? LINK_PARAMETERS : []),
    ...callerHeaders(auth),
    ...(raw?.headers ?? []),
  ];
  // A path parameter the spec does not parse (tus) is still part of the path.
  for (const name of path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? []) {
    if (!parameters.some((p) => p.in === "path" && p.name === name)) parameters.push({ name, in: "path", required: true, schema: { type: "string" }, description: `The ${name}` });
  }
  const scope = neededScope(method, path);
  const hasJsonBody = Boolean(spec.body) && !raw?.requestBody;
  const extraErrors = [...(OPERATION_NOTES[key]?.errors ?? []), ...(raw?.errors ?? []), ...(hasJsonBody ? [413, 415] : [])];
  const op: Operation = {
    operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, "").replace(/(^|[/_.-])(\w)/g, (_, __, c: string) => c.toUpperCase())}`,
    tags: [tagOf(path)],
    summary: raw?.summary ?? OPERATION_NOTES[key]?.summary,
    parameters: parameters.length ? parameters : undefined,
    security: securityFor(auth, scope ? `${scope.area}.${scope.access}` : null),
    responses: { ...successResponses(book, spec.response, path), ...(raw?.responses ?? {}), ...errorResponses(auth, extraErrors) },
  };
  const body = raw?.requestBody ?? (spec.body ? jsonBody(book, spec.body, BODY_EXAMPLES[key]) : undefined);
  if (body) op.requestBody = body;
  return op;
}

function jsonBody(book: SchemaBook, schema: unknown, example: unknown) {
  const media: Record<string, unknown> = { schema: book.input(schema) };
  if (example !== undefined) media.example = example;
  return { required: true, content: { "application/json": media } };
}

function securityFor(auth: Auth, scope: string | null) {
  if (auth === "none" || auth === "link") return [];
  const schemes = [{ bearer: [] }, { oauth2: scope ? [scope] : ["all"] }];
  return auth === "optional" ? [{}, ...schemes] : schemes;
}
