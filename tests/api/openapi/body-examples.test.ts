import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/openapi.json/route";
import { ROUTE_MODULES } from "@/app/api/openapi.json/route-modules";
import type { Handler } from "@/lib/server/http/route";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { createFolder, uploadText } from "../../helpers/files";
import { call } from "../../helpers/http";

// Issue 27, part 4: every request body example the document shows is one the server accepts.
// Each is sent as is, as an administrator, to its operation, with the ids it names (4 a folder, 12 a
// file, 42 a user: lib/server/openapi/examples.ts) swapped for objects this test creates, and names
// made unique: the answer may be any refusal of the state (403, 404, 409) but never a 400.

type Ids = { folder: number; file: number; user: number };

/** The example with its ids and names made this test's own. */
function adapt(example: unknown, ids: Ids): unknown {
  const byKey: Record<string, (v: unknown) => unknown> = {
    parent_id: () => ids.folder,
    folder_id: () => ids.folder,
    folder: () => ids.folder,
    target: (v) => (typeof v === "number" ? ids.folder : v),
    target_id: (v) => (typeof v === "string" ? String(ids.user) : ids.file),
    members: () => [ids.user],
    id: () => ids.file,
    login: () => unique("ex"),
    name: (v) => `${unique("ex")} ${v}`,
  };
  if (Array.isArray(example)) return example.map((item) => adapt(item, ids));
  if (!example || typeof example !== "object") return example;
  return Object.fromEntries(Object.entries(example).map(([key, value]) => [key, byKey[key] && typeof value !== "object" ? byKey[key](value) : key === "members" ? byKey.members(value) : adapt(value, ids)]));
}

const pathParams = (template: string, ids: Ids): Record<string, string> =>
  Object.fromEntries([...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, String(name === "fileId" ? ids.file : name === "userId" ? ids.user : ids.folder)]));

let document: any;
let admin: Awaited<ReturnType<typeof createAdmin>>;
let ids: Ids;
beforeAll(async () => {
  await openDatabase();
  document = (await call(GET, { path: "/api/openapi.json" })).body;
  admin = await createAdmin();
  const user = await createTestUser();
  const folder = await createFolder(admin, admin.privateRootId!, unique("examples_"));
  const { file } = await uploadText(admin, folder.id, `${unique("doc_")}.txt`, "hello");
  ids = { folder: folder.id, file: file.id, user: user.id };
}, OPEN_TIMEOUT);

describe("the request body examples of /api/openapi.json", () => {
  it("are accepted by their operations (no 400)", async () => {
    const sent: string[] = [];
    const refused: string[] = [];
    for (const [template, operations] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(operations)) {
        const example = op.requestBody?.content?.["application/json"]?.example;
        if (example === undefined) continue;
        const mod = (await ROUTE_MODULES.find((r) => r.path === template)!.load()) as Record<string, Handler>;
        const params = pathParams(template, ids);
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => params[name]);
        const res = await call(mod[method.toUpperCase()], { method: method.toUpperCase(), path, params, token: admin.token, body: adapt(example, ids) });
        sent.push(`${method.toUpperCase()} ${template} → ${res.status}`);
        if (res.status === 400 || res.status >= 500) refused.push(`${method.toUpperCase()} ${template}: ${res.status} ${res.text.slice(0, 300)}`);
      }
    }
    expect(refused).toEqual([]);
    expect(sent.length).toBeGreaterThanOrEqual(15);
    // Not refusals of another kind either: on the objects the test made, they do what they show.
    expect(sent.filter((s) => / → 20\d$/.test(s)).length, sent.join("\n")).toBeGreaterThanOrEqual(sent.length - 1);
  });
});
