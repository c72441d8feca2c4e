import { expect } from "vitest";
import type { Handler } from "@/lib/server/http/route";
import { callViaNode, nodeCallable } from "./node-call";

export type CallOptions = {
  method?: string;
  path?: string;
  token?: string | null;
  body?: unknown;
  rawBody?: BodyInit;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
};

export type CallResult = { status: number; body: any; text: string; headers: Headers };

/** Calls a route export directly with a real Request, as Next would; with TEST_VIA=node, over HTTP as server.ts serves it (node-call.ts). */
export async function call(handler: Handler, options: CallOptions = {}): Promise<CallResult> {
  const url = new URL(`http://coffre.test${options.path ?? "/api/test"}`);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new Request(url, { method: options.method ?? "GET", headers, body, duplex: "half" } as RequestInit);
  const res = nodeCallable(handler, body, headers)
    ? await callViaNode(handler, req, options.params ?? {}, body instanceof ReadableStream)
    : await handler(req, { params: Promise.resolve(options.params ?? {}) });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** Asserts the contract's error body and status. */
export function expectError(result: CallResult, status: number, code?: string) {
  expect(result.status, result.text).toBe(status);
  expect(result.headers.get("content-type")).toMatch(/application\/json/);
  expect(typeof result.body?.error).toBe("string");
  expect(typeof result.body?.code).toBe("string");
  if (code) expect(result.body.code).toBe(code);
}
