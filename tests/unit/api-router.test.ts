import { describe, expect, it } from "vitest";
import { apiRouter } from "@/lib/server/http/api-router";

// Issue 26: server.ts finds a request's route file as Next would, from the files' own locations.
const load = async () => ({});
const router = apiRouter(
  ["/api/[...path]", "/api/file/[fileId]", "/api/file/download", "/api/file/[fileId]/download", "/api/tus/[[...path]]", "/api/x/[a]/static", "/api/x/static/[b]", "/api/account"].map((template) => ({ template, load })),
);
const matched = (pathname: string) => {
  const found = router(pathname);
  return found && { template: found.template, params: found.params };
};

describe("the API router", () => {
  it("prefers, segment by segment, a fixed name over [param] over [...rest]", () => {
    expect(matched("/api/file/download")).toEqual({ template: "/api/file/download", params: {} });
    expect(matched("/api/file/12")).toEqual({ template: "/api/file/[fileId]", params: { fileId: "12" } });
    expect(matched("/api/file/12/download")).toEqual({ template: "/api/file/[fileId]/download", params: { fileId: "12" } });
    expect(matched("/api/x/static/static")).toEqual({ template: "/api/x/static/[b]", params: { b: "static" } });
    expect(matched("/api/x/other/static")).toEqual({ template: "/api/x/[a]/static", params: { a: "other" } });
  });

  it("sends what no route file names to the catch-all, with the rest as an array", () => {
    expect(matched("/api/file/12/nothing")).toEqual({ template: "/api/[...path]", params: { path: ["file", "12", "nothing"] } });
    expect(matched("/api")).toBeUndefined();
    expect(matched("/elsewhere")).toBeUndefined();
  });

  it("lets an optional catch-all match nothing", () => {
    expect(matched("/api/tus")).toEqual({ template: "/api/tus/[[...path]]", params: {} });
    expect(matched("/api/tus/abc")).toEqual({ template: "/api/tus/[[...path]]", params: { path: ["abc"] } });
  });

  it("decodes parameters as Next does, keeps a malformed one raw, and takes a trailing slash as the same path", () => {
    expect(matched("/api/file/a%20b%2Fc")?.params).toEqual({ fileId: "a b/c" });
    expect(matched("/api/file/%E0%A4%A")?.params).toEqual({ fileId: "%E0%A4%A" });
    expect(matched("/api/account/")).toEqual({ template: "/api/account", params: {} });
    expect(matched("/api/file//download")?.template).toBe("/api/[...path]");
  });
});
