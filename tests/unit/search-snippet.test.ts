import { describe, expect, it } from "vitest";
import { MARK_END as E, MARK_START as S, SNIPPET_MAX, snippetOf } from "@/lib/server/search/snippet";

const marked = (r: ReturnType<typeof snippetOf>) => r.highlights.map(([a, b]) => r.snippet.slice(a, b));

describe("snippetOf (ts_headline's answer to plain text and offsets)", () => {
  it("collapses whitespace and page breaks, keeps the marks as offsets", () => {
    const r = snippetOf(`  one\f\t${S}two${E}\n\n three ${S}four${E}  `);
    expect(r.snippet).toBe("one two three four");
    expect(r.highlights).toEqual([[4, 7], [14, 18]]);
  });

  it("leaves out bidi controls and other control characters, and counts UTF-16 code units", () => {
    const r = snippetOf(`😀\u202E${S}é${E}\u0000x`);
    expect(r.snippet).toBe("😀é x");
    expect(marked(r)).toEqual(["é"]);
  });

  it("cuts a long snippet around its first match without splitting a surrogate pair", () => {
    const long = `${"😀".repeat(300)} ${S}needle${E} ${"b".repeat(600)}`;
    const r = snippetOf(long);
    expect(r.snippet.length).toBeLessThanOrEqual(SNIPPET_MAX);
    expect(marked(r)).toEqual(["needle"]);
    expect(r.snippet).not.toMatch(/^[\udc00-\udfff]/);
    expect(r.snippet).not.toMatch(/[\ud800-\udbff]$/);
  });

  it("ignores an empty or unclosed mark", () => {
    expect(snippetOf(`a ${S}${E} b ${S}c`)).toEqual({ snippet: "a b c", highlights: [] });
  });
});

describe("snippetOf: the first match stays near the start", () => {
  it("starts a few words before a far first match, after an ellipsis", () => {
    const r = snippetOf(`one two three four five six seven eight nine ten eleven twelve ${S}match${E} end`);
    expect(r.snippet).toBe("… six seven eight nine ten eleven twelve match end");
    expect(marked(r)).toEqual(["match"]);
  });
});
