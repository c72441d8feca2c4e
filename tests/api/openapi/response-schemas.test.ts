import { describe, expect, it } from "vitest";
import { ROUTE_MODULES } from "@/app/api/openapi.json/route-modules";
import type { Handler } from "@/lib/server/http/route";

// Issue 27: every route() operation declares its success answer (`response`), which the tests then
// check on every call; a new operation without one fails here.

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

describe("response schemas of route() operations", () => {
  it("every operation declares its response", async () => {
    const withSchema: string[] = [];
    const without: string[] = [];
    for (const { path, load } of ROUTE_MODULES) {
      const mod = (await load()) as Record<string, Handler | undefined>;
      for (const method of METHODS) {
        const spec = mod[method]?.spec;
        // otherMethods()' 405s have no spec; handlers outside route() (tus, next-auth) no endpoint.
        if (!spec || mod[method]?.endpoint === undefined) continue;
        // PATCH as PUT's synonym (methods.ts) is the same operation.
        if (method === "PATCH" && mod.PATCH === mod.PUT) continue;
        (spec.response ? withSchema : without).push(`${method} ${path}`);
      }
    }
    expect(withSchema.length).toBeGreaterThan(250);
    expect(without).toEqual([]);
  });
});
