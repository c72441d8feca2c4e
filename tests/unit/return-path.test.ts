import { describe, expect, it } from "vitest";
import { nextAuthRedirect, safeReturnPath } from "@/lib/server/http/return-path";

// Issue 25, finding 14: every return address a request carries is a path of this site or "/".
describe("safeReturnPath", () => {
  it("keeps paths of this site, with their query and fragment", () => {
    for (const path of ["/", "/files/12", "/oauth2/authorize?client_id=a&scope=files.read", "/search?q=a%2Fb#top", "/a\\b", "/%5C%5Cevil.example"]) {
      expect(safeReturnPath(path)).toBe(path);
    }
  });

  it("refuses anything that a browser would take elsewhere", () => {
    const refused = [
      "/\\evil.example/",
      "/\\/evil.example",
      "//evil.example",
      "///evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/\u0000",
      "/\u007f",
      "\\/evil.example",
      "https://evil.example/",
      "http://coffre.test/files",
      "javascript:alert(1)",
      " /files",
      "files",
      "",
      `/${"a".repeat(2048)}`,
    ];
    for (const value of refused) expect(safeReturnPath(value), JSON.stringify(value)).toBe("/");
    for (const value of [undefined, null, 42, ["/files"], { toString: () => "/files" }]) expect(safeReturnPath(value)).toBe("/");
    expect(safeReturnPath("//evil.example", "/login")).toBe("/login");
  });
});

describe("nextAuthRedirect (next-auth's callbacks.redirect)", () => {
  const baseUrl = "http://coffre.test";
  it("turns next-auth's own absolute addresses into their path and refuses other origins", () => {
    expect(nextAuthRedirect({ url: "http://coffre.test/files/3?x=1", baseUrl })).toBe("/files/3?x=1");
    expect(nextAuthRedirect({ url: "http://coffre.test", baseUrl })).toBe("/");
    expect(nextAuthRedirect({ url: "http://coffre.test.evil.example/", baseUrl })).toBe("/");
    expect(nextAuthRedirect({ url: "https://coffre.test/files", baseUrl })).toBe("/");
    expect(nextAuthRedirect({ url: "http://coffre.test//evil.example", baseUrl })).toBe("/");
  });

  it("checks relative values like every other return address", () => {
    expect(nextAuthRedirect({ url: "/files", baseUrl })).toBe("/files");
    expect(nextAuthRedirect({ url: "/\\evil.example/", baseUrl })).toBe("/");
    expect(nextAuthRedirect({ url: "/\t/evil.example", baseUrl })).toBe("/");
  });
});
