import { execFileSync } from "node:child_process";
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// Issue 19, part 2: an import against the layers fails `npm run lint` (eslint.config.mjs), and the
// import graph of the code (scripts/import-graph.mjs) has no arrow back.
const ROOT = path.resolve(import.meta.dirname, "../..");

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
}, 120_000);

/** The layer rules a file at `filePath` (which need not exist) breaks with this one import. */
async function broken(filePath: string, specifier: string): Promise<string[]> {
  const code = `import * as imported from "${specifier}";\n\nexport const used = imported;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return result.messages.filter((m) => m.ruleId === "import/no-restricted-paths" || m.ruleId === "no-restricted-imports").map((m) => m.ruleId!);
}

describe("layer rules in eslint.config.mjs", () => {
  it("refuse the web client importing the server or the database", async () => {
    expect(await broken("components/files/layers-check.tsx", "@/lib/server/errors")).toEqual(["import/no-restricted-paths"]);
    expect(await broken("components/files/layers-check.tsx", "../../db")).toEqual(["import/no-restricted-paths"]);
    expect(await broken("lib/queries/layers-check.ts", "@/lib/storage")).toEqual(["import/no-restricted-paths"]);
  });

  it("keep lib/contracts to zod and itself", async () => {
    expect(await broken("lib/contracts/layers-check.ts", "@/lib/server/errors")).toContain("import/no-restricted-paths");
    expect(await broken("lib/contracts/layers-check.ts", "drizzle-orm")).toEqual(["no-restricted-imports"]);
    expect(await broken("lib/contracts/layers-check.ts", "zod")).toEqual([]);
    expect(await broken("lib/contracts/layers-check.ts", "@/lib/contracts/common")).toEqual([]);
  });

  it("refuse arrows back from db, lib/storage and lib/server", async () => {
    expect(await broken("db/schema/layers-check.ts", "@/lib/server/errors")).toEqual(["import/no-restricted-paths"]);
    expect(await broken("lib/storage/layers-check.ts", "@/db")).toEqual(["import/no-restricted-paths"]);
    expect(await broken("lib/storage/layers-check.ts", "../server/errors")).toEqual(["import/no-restricted-paths"]);
    expect(await broken("lib/server/files/layers-check.ts", "@/components/admin/admin-forbidden")).toEqual(["import/no-restricted-paths"]);
    expect(await broken("lib/server/files/layers-check.ts", "@/app/api/openapi.json/route-modules")).toEqual(["import/no-restricted-paths"]);
  });

  it("let the arrows that go down pass", async () => {
    expect(await broken("lib/server/files/layers-check.ts", "@/db")).toEqual([]);
    expect(await broken("lib/server/files/layers-check.ts", "@/lib/storage")).toEqual([]);
    expect(await broken("app/api/layers-check/route.ts", "@/lib/server/errors")).toEqual([]);
    expect(await broken("components/files/layers-check.tsx", "@/lib/contracts/common")).toEqual([]);
    expect(await broken("db/layers-check.ts", "@/lib/config/data-dir")).toEqual([]);
  });
});

describe("the API outside Next's request scope (issue 26)", () => {
  it("refuses next/headers and after() in routes and services, not in pages", async () => {
    expect(await broken("app/api/layers-check/route.ts", "next/headers")).toEqual(["no-restricted-imports"]);
    expect(await broken("lib/server/files/layers-check.ts", "next/headers")).toEqual(["no-restricted-imports"]);
    const [after] = await eslint.lintText(`import { after } from "next/server";\n\nexport const used = after;\n`, { filePath: path.join(ROOT, "lib/server/files/layers-check.ts") });
    expect(after.messages.map((m) => m.ruleId)).toEqual(["no-restricted-imports"]);
    expect(await broken("app/(app)/layers-check/page.tsx", "next/headers")).toEqual([]);
  });
});

describe("scripts/import-graph.mjs", () => {
  it("finds no arrow back in the code", () => {
    const output = execFileSync(process.execPath, [path.join(ROOT, "scripts/import-graph.mjs")], { encoding: "utf8" });
    expect(output).toMatch(/^app -> server\s+\d+$/m);
    expect(output).toContain("No arrow back.");
  });
});
