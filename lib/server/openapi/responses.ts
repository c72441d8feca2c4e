import "server-only";
import { z } from "zod";
import { noContent, redirect } from "@/lib/contracts/common";
import type { ResponseSpec } from "../http/check-response";
import type { Auth } from "../http/route";
import type { SchemaBook } from "./schema-book";

/** The contract's error body (errors.ts, toErrorResponse). */
export const ERROR_SCHEMA = {
  type: "object",
  required: ["error", "code"],
  properties: {
    error: { type: "string", description: "A sentence for people" },
    code: { type: "string", description: "A stable code for programs (`not_found`, `locked`, `insufficient_storage`...)" },
    details: { description: "Field errors of a 400 (`[{path, message}]`), or what the code needs (a second factor's `mfa_token`...)" },
  },
  example: { error: "Folder not found", code: "not_found" },
};

const SUCCESS_WORDS: Record<string, string> = {
  "200": "Success",
  "201": "Created",
  "202": "Accepted: the work continues in the background",
  "204": "Success, no content",
  "302": "A redirect: `Location` names where to go",
  "303": "A redirect: `Location` names where to go",
};

const ERROR_WORDS: Record<number, string> = {
  400: "Invalid request: `details` names the fields",
  401: "Missing, unknown or expired token",
  403: "Not allowed (rights, role, or the OAuth2 token's scope)",
  404: "Not found",
  409: "Conflict: the name exists, or the object's state forbids it",
  410: "Gone: the link or request has expired, been used or ended",
  413: "Too large (a JSON body over 1 MiB, a file over the limit)",
  415: "Unsupported media type",
  416: "Range not satisfiable",
  422: "The document cannot be processed (encrypted, damaged, active content)",
  423: "Locked by another user, or still being prepared",
  429: "Too many attempts: wait before trying again",
  502: "The mail server refused or could not be reached",
  503: "A service the operation needs is unavailable",
  507: "A quota (user, folder, platform) would be exceeded",
};

const errorResponse = (status: number) => ({ description: ERROR_WORDS[status] ?? "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });

/** Every operation may be refused as invalid or not found; an account's operations also as 401/403, a link's as 401/410. */
export function errorResponses(auth: Auth, extra: readonly number[]): Record<string, unknown> {
  const statuses = new Set([400, 404, ...extra]);
  if (auth === "user" || auth === "admin" || auth === "optional") [401, 403].forEach((s) => statuses.add(s));
  if (auth === "link") [401, 403, 410].forEach((s) => statuses.add(s));
  return Object.fromEntries([...statuses].sort().map((status) => [String(status), errorResponse(status)]));
}

/** The success answers, from route()'s `response`: one schema for 200, or one per status; the markers of common.ts for 204, redirects and bytes. */
export function successResponses(book: SchemaBook, response: ResponseSpec | undefined, path: string): Record<string, unknown> {
  if (!response) return {};
  const entries: [string, z.ZodType][] = response instanceof z.ZodType ? [["200", response]] : Object.entries(response);
  return Object.fromEntries(entries.map(([status, schema]) => success(book, status, schema, path)));
}

function success(book: SchemaBook, status: string, schema: z.ZodType, path: string): [string, unknown] {
  if (schema === noContent) return ["204", { description: SUCCESS_WORDS["204"] }];
  if (schema === redirect) {
    // Single sign-on answers 303 (the browser must GET the next page after a POSTed assertion).
    const code = path.startsWith("/api/sso/") ? "303" : "302";
    return [code, { description: SUCCESS_WORDS[code], headers: { Location: { schema: { type: "string" } } } }];
  }
  if (schema instanceof z.ZodNever && schema.description) {
    // notJson(mediaType): a file, a picture, a PDF.
    return [status, { description: SUCCESS_WORDS[status] ?? "Success", content: { [schema.description]: { schema: { type: "string", contentMediaType: schema.description } } } }];
  }
  return [status, { description: SUCCESS_WORDS[status] ?? "Success", content: { "application/json": { schema: book.output(schema) } } }];
}
