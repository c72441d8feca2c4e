import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// Issue 32, part 5: a visible string written in a screen instead of the catalogues fails
// `npm run lint` (eslint.config.mjs): JSX text, and the attributes a person reads or hears.
const ROOT = path.resolve(import.meta.dirname, "../..");

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
}, 120_000);

/** The catalogue rules a component at `filePath` (which need not exist) breaks with this JSX. */
async function broken(jsx: string, filePath = "components/files/catalogue-check.tsx"): Promise<string[]> {
  const code = `const t = (key: string) => key;\n\nexport function Check() {\n  return ${jsx};\n}\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return result.messages.filter((m) => m.ruleId === "react/jsx-no-literals" || m.ruleId === "no-restricted-syntax").map((m) => m.ruleId!);
}

describe("catalogue rules in eslint.config.mjs", () => {
  it("refuse English written in JSX text, on screens and pages", async () => {
    expect(await broken("<p>Loading files</p>")).toEqual(["react/jsx-no-literals"]);
    expect(await broken("<p>Chargement</p>", "app/(app)/catalogue-check/page.tsx")).toEqual(["react/jsx-no-literals"]);
  });

  it("refuse a literal label, placeholder, title, alt or aria-label", async () => {
    for (const attribute of ["aria-label", "placeholder", "title", "alt"]) {
      expect(await broken(`<input ${attribute}="Search" />`)).toEqual(["no-restricted-syntax"]);
    }
    expect(await broken(`<input placeholder="ada@example.org" />`)).toEqual(["no-restricted-syntax"]);
  });

  it("let translated text, punctuation between parts and technical attributes pass", async () => {
    expect(await broken(`<p>{t("files.loading")}</p>`)).toEqual([]);
    expect(await broken(`<p>{t("a")} · {t("b")}</p>`)).toEqual([]);
    expect(await broken(`<input type="search" className="field" autoComplete="off" placeholder={t("files.search")} />`)).toEqual([]);
    expect(await broken(`<input aria-label="—" />`)).toEqual([]);
  });
});
