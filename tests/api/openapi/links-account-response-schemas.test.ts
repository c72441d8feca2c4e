import { describe, expect, it } from "vitest";
import { ROUTE_MODULES } from "@/app/api/openapi.json/route-modules";
import type { Handler } from "@/lib/server/http/route";

// Issue 27: the operations of links, shares, drop links, email shares, mail and file templates, jobs,
// OAuth2, engagement, the account and its security, second factors and sign-in all declare their answer.
// (POST /template/file/copy answers a File: it takes the files domain's schema when that lands.)

const DOMAINS = /^\/api\/(share|shares|sharelink|sharelinks|ulink|ulinks|email|emails|template|token|admin\/jobs?|oauth2|account|auth|reset_password)(\/|$)/;
const LEFT = new Set<string>();
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

describe("response schemas of the links and account domains", () => {
  it("every route() operation of these domains declares its answer", async () => {
    const without: string[] = [];
    let counted = 0;
    for (const { path, load } of ROUTE_MODULES) {
      if (!DOMAINS.test(path)) continue;
      const mod = (await load()) as Record<string, Handler | undefined>;
      for (const method of METHODS) {
        const handler = mod[method];
        if (!handler?.spec || handler.endpoint === undefined) continue;
        if (method === "PATCH" && mod.PATCH === mod.PUT) continue;
        counted++;
        if (!handler.spec.response && !LEFT.has(`${method} ${path}`)) without.push(`${method} ${path}`);
      }
    }
    expect(counted).toBeGreaterThan(100);
    expect(without).toEqual([]);
  });
});
