import { describe, expect, it } from "vitest";
import { cleanDate, cleanMeta, cleanPages, cleanText, MAX_META_CHARS } from "@/lib/server/meta/clean-meta";

describe("cleanMeta (values read from files)", () => {
  it("strips NUL, control and bidi characters, folds white space, and cuts at MAX_META_CHARS characters without splitting a pair", () => {
    expect(cleanText("Re\u0000port\u202E \u2066cod.exe\u2069\u200F")).toBe("Report cod.exe");
    expect(cleanText("  two\n\tlines  ")).toBe("two lines");
    expect(cleanText("\u0000\u202E ")).toBeUndefined();
    expect(cleanText(42)).toBeUndefined();
    const long = cleanText("😀".repeat(MAX_META_CHARS + 5))!;
    expect(Array.from(long)).toHaveLength(MAX_META_CHARS);
    expect(long.endsWith("😀")).toBe(true);
    // Megabytes of a value: only its beginning is looked at.
    expect(cleanText(`${" ".repeat(5_000_000)}x`)).toBeUndefined();
    expect(cleanText("\u0000".repeat(3999) + "😀")).toBeUndefined();
    expect(cleanText("a".repeat(3_000_000))).toBe("a".repeat(MAX_META_CHARS));
  });

  it("reads PDF dates with or without zone and parts, ISO 8601 dates, and leaves out impossible ones", () => {
    expect(cleanDate("D:20240305102030+01'00'")).toBe("2024-03-05T09:20:30.000Z");
    expect(cleanDate("D:20240305102030-05'30")).toBe("2024-03-05T15:50:30.000Z");
    expect(cleanDate("D:20240305102030Z")).toBe("2024-03-05T10:20:30.000Z");
    expect(cleanDate("D:2024")).toBe("2024-01-01T00:00:00.000Z");
    expect(cleanDate("20240305")).toBe("2024-03-05T00:00:00.000Z");
    expect(cleanDate("2024-03-05T10:20:30Z")).toBe("2024-03-05T10:20:30.000Z");
    expect(cleanDate("2024-03-05T10:20:30.25")).toBe("2024-03-05T10:20:30.250Z");
    expect(cleanDate("2024-03-05T10:20:30+02:00")).toBe("2024-03-05T08:20:30.000Z");
    expect(cleanDate("2024-03-05")).toBe("2024-03-05T00:00:00.000Z");
    expect(cleanDate(new Date("2023-07-14T09:08:07Z"))).toBe("2023-07-14T09:08:07.000Z");
    for (const bad of ["D:20240231", "D:20241301", "D:20240305250000", "2024-02-30T00:00:00Z", "yesterday", "D:0000", "", "2024-03-05T10:20:30+25:00"]) {
      expect(cleanDate(bad), bad).toBeUndefined();
    }
    expect(cleanDate(new Date(Number.NaN))).toBeUndefined();
  });

  it("keeps page counts that are whole numbers from 1 to a million", () => {
    expect(cleanPages(3)).toBe(3);
    expect(cleanPages("12")).toBe(12);
    for (const bad of [0, -1, 2.5, "1e3", "x", 2_000_000, Number.NaN]) expect(cleanPages(bad), String(bad)).toBeUndefined();
  });

  it("answers the contract's keys only, absent when empty", () => {
    expect(cleanMeta({ title: " T ", author: "", pages: "0", date: "nope", evil: "x", camera: "Canon EOS" })).toEqual({ title: "T", camera: "Canon EOS" });
  });
});
