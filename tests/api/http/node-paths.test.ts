import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "@/app/api/route-table";
import { nodePaths } from "@/lib/server/http/node-paths";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { serveNode } from "../../helpers/node-server";

// Issue 26, part 1: server.ts answers every /api path from the route files without entering Next,
// with what Next gave: the route's answer, HEAD by GET, Next's OPTIONS and 405, the JSON 404, the
// API's security headers; next-auth's own routes are left to Next.
let server: Awaited<ReturnType<typeof serveNode>>;
let leftToNext: string[] = [];
let user: TestUser;

beforeAll(async () => {
  await openDatabase();
  user = await createTestUser();
  const answer = nodePaths(API_ROUTES);
  server = await serveNode(async (req, res) => {
    const answered = answer(req, res);
    if (answered) return answered;
    leftToNext.push(req.url ?? "");
    res.writeHead(418).end();
  });
}, OPEN_TIMEOUT);
afterAll(() => server?.close());

const send = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);
const auth = () => ({ authorization: `Bearer ${user.token}` });

describe("the API on the raw Node request", () => {
  it("answers a route() operation with its JSON, its length and the API's headers", async () => {
    const res = await send("/api/account", { headers: auth() });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ id: String(user.id), login: user.login });
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("refuses without a token, with the contract's error body", async () => {
    const res = await send("/api/account");
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "unauthorized" });
  });

  it("answers HEAD by GET without a body, OPTIONS with Allow, other methods as the route file says", async () => {
    const get = await send("/api/publicconfig");
    const head = await send("/api/publicconfig", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(get.headers.get("content-length"));
    expect(await head.text()).toBe("");
    const options = await send("/api/publicconfig", { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT");
    const post = await send("/api/publicconfig", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await post.json()).toMatchObject({ code: "method_not_allowed" });
  });

  it("gives a JSON 404 for a path no route file names, and decodes path parameters", async () => {
    const missing = await send("/api/no/such/operation");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "No operation at /api/no/such/operation", code: "not_found" });
    const badId = await send("/api/user/%E2%80%AE12", { headers: auth() });
    expect(badId.status).toBe(400);
  });

  it("reads a JSON body, and refuses one over 1 MiB while it is still arriving, the connection kept", async () => {
    const made = await send("/api/folder", { method: "POST", headers: { ...auth(), "content-type": "application/json" }, body: JSON.stringify({ name: "From node", parent_id: user.privateRootId }) });
    expect(made.status).toBe(201);
    expect(await made.json()).toMatchObject({ name: "From node" });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${server.url}/api/folder`, { method: "POST", agent, headers: { ...auth(), "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d)).on("end", () => resolve({ status: res.statusCode!, body }));
      });
      req.on("error", reject);
      req.write(`{"name":"${"x".repeat(1024 * 1024)}`);
      setTimeout(() => req.end(`", "parent_id": ${user.privateRootId}}`), 200);
    });
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toMatchObject({ code: "payload_too_large" });
    const again = await new Promise<number>((resolve, reject) => {
      http.get(`${server.url}/api/publicconfig`, { agent }, (res) => res.resume().on("end", () => resolve(res.statusCode!))).on("error", reject);
    });
    expect(again).toBe(200);
    agent.destroy();
  });

  it("runs a route file that is not a route() operation as Next would (tus's own 405)", async () => {
    const res = await send("/api/tus", { method: "PUT", body: "x" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, HEAD, PATCH, DELETE, OPTIONS");
  });

  it("lets our own pages frame the previews, and leaves next-auth and the pages to Next", async () => {
    const preview = await send("/api/preview/1");
    expect(preview.headers.get("x-frame-options")).toBeNull();
    expect(preview.headers.get("x-content-type-options")).toBe("nosniff");
    leftToNext = [];
    expect((await send("/api/auth/session")).status).toBe(418);
    expect((await send("/files")).status).toBe(418);
    expect(leftToNext).toEqual(["/api/auth/session", "/files"]);
  });
});
