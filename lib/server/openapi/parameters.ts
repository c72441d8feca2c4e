import "server-only";
import type { Auth } from "../http/route";
import { jsonSchema } from "./json-schema";

type JsonSchema = Record<string, unknown>;
export type Parameter = { name: string; in: "path" | "query" | "header"; required: boolean; schema: JsonSchema; description?: string; example?: unknown };

/**
 * A header parameter. Swagger UI fills "Try it out" with a parameter's example, so the optional
 * headers that change what a request does (AsId, Range...) show theirs in the description instead.
 */
export const header = (name: string, description: string, example?: string, required = false): Parameter => ({
  name,
  in: "header",
  required,
  schema: { type: "string" },
  description,
  ...(example === undefined ? {} : { example }),
});

/** api.md, "AsId": administrators act as anyone, managers as the users they manage. */
const AS_ID = header("AsId", "Act as another user, by id (`AsId: 42`): administrators as anyone, managers as the users of the groups they manage (403 otherwise)");

/** Headers every operation of this kind of caller may send. */
export const callerHeaders = (auth: Auth): Parameter[] => (auth === "user" || auth === "admin" || auth === "optional" ? [AS_ID] : []);

/** A link's visitor has no account: its `access_token` (Bearer or query) comes from the link's passcheck. */
export const LINK_PARAMETERS: Parameter[] = [
  { name: "access_token", in: "query", required: false, schema: { type: "string" }, description: "What passcheck returned, when the link is protected (or `Authorization: Bearer`)" },
  { name: "r", in: "query", required: false, schema: { type: "string" }, description: "The recipient key of an email share's personal address" },
];

/** Parameters whose example is also the OpenAPI `example`: the others show theirs in the description. */
const SENT_AS_IS = new Set(["offset_start", "nb_objects", "token"]);

/**
 * What a parameter means, by name (rest-interface's words), with an example where it helps
 * (flags and ids have none: the description says what they take).
 */
const WORDS: Record<string, [description: string, example?: unknown]> = {
  full: ["Flag: the full form of each object (rights, owners, counts)"],
  light: ["Flag: the light form of each object (ids and names)"],
  meta: ["Flag: include the file's metadata (`meta`: title, author, pages...)"],
  latest: ["Flag: when the id names an older version, answer with the latest one"],
  offset_start: ["Paging: index of the first object (default 0)", 0],
  nb_objects: ["Paging: objects per page (default 30, at most 1000)", 30],
  depth: ["Levels of subfolders to include (0 default; -1 the whole tree, discouraged)"],
  filter: ["1 folders only, 2 files only, 3 both (default)"],
  recursive: ["Flag: search mode (for a read) or apply to subfolders (for a change)"],
  search_label: ["Search mode: keywords", "invoice"],
  in_name: ["Search mode: 1 to match names"],
  in_annotations: ["Search mode: 1 to match annotations"],
  in_content: ["Search mode: 1 to match extracted text"],
  global: ["Search mode: 1 to search the whole platform"],
  creation_start: ["Search mode: created on or after (ISO 8601, or `@` and unix seconds)", "2026-01-01T00:00:00Z"],
  creation_end: ["Search mode: created on or before", "2026-12-31T23:59:59Z"],
  modification_start: ["Search mode: modified on or after", "2026-01-01T00:00:00Z"],
  modification_end: ["Search mode: modified on or before", "2026-12-31T23:59:59Z"],
  size_start: ["Search mode: at least this many bytes", 1024],
  size_end: ["Search mode: at most this many bytes", 10485760],
  copy: ["The id of the object to copy (the body names the destination)"],
  trash: ["1 (default): to the trash; 0: delete permanently"],
  versions: ["Which versions: `all` (default), `none` (the current one only), `previous` (the current and older)"],
  all: ["Flag: every item (all versions, or the whole platform where allowed)"],
  user_id: ["Another user's id (administrators), or `all` where the operation allows it"],
  keyword: ["Filters by login, name or email", "martin"],
  search: ["Filters by name or email (at least 3 characters)", "mar"],
  member_of: ["Only the members of this group (login)", "sales"],
  alert: ["Flag: email the user their login and password"],
  token: ["A token from the token operations (`POST /api/token/file/{fileId}/download`)", "3f7c1e0a9b2d4c6e8f01a2b3c4d5e6f7"],
  searchable: ["Flag: the searchable PDF made by OCR of a scan, instead of the original"],
  files: ["File ids, comma-separated"],
  folders: ["Folder ids, comma-separated"],
  name: ["A name"],
  details: ["Flag: the reason with the answer"],
  format: ["Export format", "csv"],
  type: ["Filters by type (see the schema's values)", undefined],
  status: ["Filters by state (see the schema's values)", undefined],
  state: ["Flag: answer the thumbnail's state instead of waiting for it"],
  kind: ["Filters by kind (see the schema's values)", undefined],
  download: ["Flag: the archived content itself, as a download"],
  tags: ["Tag ids, comma-separated: only objects carrying them"],
  types: ["Log entry types, comma-separated", undefined],
  owner_id: ["Only the objects of this owner (user id)"],
  direction: ["`asc` or `desc`"],
  order: ["Sort key (see the schema's values)", undefined],
  statut: ["Log entries that succeeded (`ADMLLOG_OK`) or failed (`ADMLLOG_ERROR`)"],
  object_type: ["Only the entries about this kind of object (`file`, `folder`, `user`...)"],
  object_id: ["Only the entries about this object's id"],
  date_start: ["On or after (ISO 8601, or `@` and unix seconds)", "2026-01-01T00:00:00Z"],
  date_end: ["On or before (ISO 8601, or `@` and unix seconds)", "2026-12-31T23:59:59Z"],
  object: ["A path from a root space; a trailing slash names a folder"],
  folder_id: ["A folder's id"],
  w: ["Width of the rendered page in pixels"],
  next: ["Where to go once signed in (a path of this site)"],
  ticket: ["The sign-in ticket the provider's callback handed over", undefined],
  mask: ["Sections, as a bitmask: 1 storage, 2 trash per user, 4 slots, 8 visits, 16 versions, 32 statistics, 64 private spaces"],
  category_id: ["Only the tags of this category"],
  usage: ["Flag: how many objects carry each tag"],
  role: ["Filters by role (see the schema's values)", undefined],
  columns: ["The export's columns, comma-separated", undefined],
  key: ["A link's key", undefined],
  access_token: ["What passcheck returned, when the link is protected (or `Authorization: Bearer`)", undefined],
  r: ["The recipient key of an email share's personal address", undefined],
};

/** One parameter per property of an object schema (refined or piped objects included), described. */
export function parametersOf(schema: unknown, where: "path" | "query"): Parameter[] {
  if (!schema) return [];
  const object = jsonSchema(schema);
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const [description, example] = WORDS[name] ?? [describeByName(name, property, where)];
    const text = (property.description as string | undefined) ?? description;
    const parameter: Parameter = { name, in: where, required: where === "path" || required.has(name), schema: property, description: example === undefined ? text : `${text}. Example: \`${example}\`` };
    // Swagger UI sends a parameter's example in "Try it out": only the ones that change nothing there.
    const sample = SENT_AS_IS.has(name) ? example : property.default;
    if (sample !== undefined) parameter.example = sample;
    return parameter;
  });
}

/** Path ids and keys read themselves (`fileId`: the File's id); anything else says its type. */
function describeByName(name: string, property: JsonSchema, where: "path" | "query"): string {
  const id = name.match(/^(\w+?)(Id|_id)$/);
  if (id) return `The ${id[1].replace(/([A-Z])/g, " $1").toLowerCase()}'s id`;
  if (name === "key") return "The link's key";
  if (Array.isArray(property.enum)) return `One of ${property.enum.map((v) => `\`${v}\``).join(", ")}`;
  return where === "path" ? `The ${name}` : `\`${name}\` (${String(property.type ?? "string")})`;
}
