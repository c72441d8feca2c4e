import { describe, expect, it } from "vitest";
import { attachmentDisposition } from "@/lib/server/downloads/content-disposition";
import { parseRange } from "@/lib/server/downloads/range";

describe("parseRange", () => {
  it("reads single, open and suffix ranges", () => {
    expect(parseRange("bytes=0-99", 1000)).toEqual({ kind: "partial", start: 0, end: 99 });
    expect(parseRange("bytes=900-", 1000)).toEqual({ kind: "partial", start: 900, end: 999 });
    expect(parseRange("bytes=-500", 1000)).toEqual({ kind: "partial", start: 500, end: 999 });
    expect(parseRange("bytes=-5000", 1000)).toEqual({ kind: "partial", start: 0, end: 999 });
    expect(parseRange("bytes=990-5000", 1000)).toEqual({ kind: "partial", start: 990, end: 999 });
    expect(parseRange(" Bytes = 5 - 6 ", 1000)).toEqual({ kind: "partial", start: 5, end: 6 });
  });

  it("is unsatisfiable past the end or for an empty suffix", () => {
    expect(parseRange("bytes=1000-", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=5000-6000", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=-0", 1000)).toEqual({ kind: "unsatisfiable" });
  });

  it("ignores what it cannot honour: nothing, other units, bad syntax, several ranges, empty files", () => {
    for (const header of [null, "", "items=0-1", "bytes=abc", "bytes=-", "bytes=5-1", "bytes=0-1,5-6", "bytes=1-2-3"]) {
      expect(parseRange(header, 1000)).toEqual({ kind: "whole" });
    }
    expect(parseRange("bytes=0-", 0)).toEqual({ kind: "whole" });
  });
});

describe("attachmentDisposition", () => {
  it("gives an ASCII fallback and the exact UTF-8 name (RFC 6266)", () => {
    expect(attachmentDisposition("report.pdf")).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition("Été \"100%\".txt")).toBe(`attachment; filename="Ete _100__.txt"; filename*=UTF-8''%C3%89t%C3%A9%20%22100%25%22.txt`);
    expect(attachmentDisposition("a'b(c)*.txt")).toBe(`attachment; filename="a'b(c)*.txt"; filename*=UTF-8''a%27b%28c%29%2A.txt`);
    expect(attachmentDisposition("日本")).toBe(`attachment; filename="__"; filename*=UTF-8''%E6%97%A5%E6%9C%AC`);
  });
});
