import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/openapi.json/route";
import { call } from "../../helpers/http";

// Issue 27, part 4: a client generated from /api/openapi.json (openapi-typescript) compiles, and its
// types are the contract's: typed calls type-check, and calls that get a type wrong do not.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");
const run = promisify(execFile);

const HELPERS = `import type { components, paths } from "./schema";
type Method = "get" | "post" | "put" | "delete";
/** The JSON answer of an operation for a status. */
export type Ok<P extends keyof paths, M extends Method & keyof paths[P], S extends number = 200> = paths[P][M] extends { responses: { [K in S]: { content: { "application/json": infer T } } } } ? T : never;
export type Body<P extends keyof paths, M extends Method & keyof paths[P]> = paths[P][M] extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
export type Params<P extends keyof paths, M extends Method & keyof paths[P]> = paths[P][M] extends { parameters: infer X } ? X : never;
export declare function answer<T>(): T;
export type ErrorBody = components["schemas"]["Error"];
`;

const CALLS = `import { answer, type Body, type ErrorBody, type Ok, type Params } from "./helpers";
const folder = answer<Ok<"/api/folder/{folderId}", "get">>();
export const folderId: number = "id" in folder ? folder.id : 0;
const created = answer<Ok<"/api/folder", "post", 201>>();
export const createdName: string = created.name;
export const newFolder: Body<"/api/folder", "post"> = { name: "Reports", parent_id: 4 };
const users = answer<Ok<"/api/users", "get">>();
export const total: number = users.nb_total_objects;
export const login: string | undefined = users.objects[0]?.login;
export const download: Params<"/api/file/download", "get">["query"] = { token: "3f7c1e0a" };
export const acting: Params<"/api/folder/{folderId}", "get">["header"] = { AsId: "42" };
export const refused: ErrorBody = { error: "Folder not found", code: "not_found" };
const file = answer<Ok<"/api/file/upload", "post", 201>>();
export const size: number = file.size;
`;

/** Each line must be a type error: the generated types are not \`any\`. */
const WRONG = [
  `export const a: string = answer<Ok<"/api/users", "get">>().nb_total_objects;`,
  `export const b: Body<"/api/folder", "post"> = { name: "Reports" };`,
  `export const c: Params<"/api/file/download", "get">["query"] = {};`,
  `export const d: boolean = answer<Ok<"/api/file/upload", "post", 201>>().size;`,
];

let dir: string;
beforeAll(async () => {
  const document = (await call(GET, { path: "/api/openapi.json" })).body;
  dir = mkdtempSync(path.join(tmpdir(), "coffre-client-"));
  writeFileSync(path.join(dir, "schema.ts"), astToString(await openapiTS(document)));
  writeFileSync(path.join(dir, "helpers.ts"), HELPERS);
  writeFileSync(path.join(dir, "calls.ts"), CALLS);
  writeFileSync(path.join(dir, "wrong.ts"), `import { answer, type Body, type Ok, type Params } from "./helpers";\n${WRONG.join("\n")}\n`);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function typeCheck(file: string): Promise<string> {
  const args = [TSC, "--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", path.join(dir, file)];
  try {
    await run(process.execPath, args, { cwd: dir });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

describe("a TypeScript client generated from the document", () => {
  it("compiles, and typed calls type-check against it", async () => {
    expect(await typeCheck("calls.ts")).toBe("");
  }, 120_000);

  it("refuses calls that get the contract's types wrong", async () => {
    const output = await typeCheck("wrong.ts");
    const lines = new Set([...output.matchAll(/wrong\.ts\((\d+),/g)].map(([, line]) => Number(line)));
    expect([...lines].sort(), output).toEqual([2, 3, 4, 5]);
  }, 120_000);
});
