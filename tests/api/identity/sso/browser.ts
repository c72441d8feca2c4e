import { expect } from "vitest";
import type { Handler } from "@/lib/server/http/route";

// A small browser for the SSO tests: it keeps cookies per host, follows redirects and submits
// the forms of the real identity providers (oidc-provider's sign-in and consent pages,
// SimpleSAMLphp's sign-in page and its auto-posting response page) over real HTTP, and hands
// every request for the app to its route exports, as Next would.

export const APP = "http://coffre.test";

type Cookie = { name: string; value: string; path: string };
export type AppRoute = { handler: Handler; params: Record<string, string> };
export type Step = { kind: "get"; url: string } | { kind: "post"; url: string; fields: Record<string, string> };

export class TestBrowser {
  private jar = new Map<string, Cookie[]>();

  /** Cookies this browser would send to a URL. */
  cookieHeader(url: string): string {
    const { host, pathname } = new URL(url);
    return (this.jar.get(host) ?? [])
      .filter((c) => pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }

  cookie(url: string, name: string): string | undefined {
    return (this.jar.get(new URL(url).host) ?? []).find((c) => c.name === name)?.value;
  }

  store(url: string, headers: Headers) {
    const host = new URL(url).host;
    const cookies = this.jar.get(host) ?? [];
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";").map((s) => s.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) || "/";
      const gone = attributes.some((a) => /^max-age=0$/i.test(a)) || value === "" || value === "deleted";
      const kept = cookies.filter((c) => !(c.name === name && c.path === path));
      if (!gone) kept.push({ name, value, path });
      cookies.splice(0, cookies.length, ...kept);
    }
    this.jar.set(host, cookies);
  }

  /** One request to the app, through its route export. */
  async app(route: AppRoute, step: Step): Promise<Response> {
    const headers = new Headers({ "user-agent": "vitest-browser", "x-forwarded-for": "10.9.8.7" });
    const cookie = this.cookieHeader(step.url);
    if (cookie) headers.set("cookie", cookie);
    let body: string | undefined;
    if (step.kind === "post") {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(step.fields).toString();
    }
    const res = await route.handler(new Request(step.url, { method: step.kind === "post" ? "POST" : "GET", headers, body }), { params: Promise.resolve(route.params) });
    this.store(step.url, res.headers);
    return res;
  }

  /** One request to a real server (the identity provider). */
  async external(step: Step): Promise<Response> {
    const headers = new Headers({ "user-agent": "vitest-browser" });
    const cookie = this.cookieHeader(step.url);
    if (cookie) headers.set("cookie", cookie);
    let body: string | undefined;
    if (step.kind === "post") {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(step.fields).toString();
    }
    const res = await fetch(step.url, { method: step.kind === "post" ? "POST" : "GET", headers, body, redirect: "manual" });
    this.store(step.url, res.headers);
    return res;
  }

  /**
   * Browses the identity provider from `start` until it sends the browser back to the app (a
   * redirect, or a form posted to it), filling its forms with `fill` on the way.
   */
  async atProvider(start: string, fill: Record<string, string> = {}): Promise<Step> {
    let step: Step = { kind: "get", url: start };
    for (let hops = 0; hops < 20; hops++) {
      if (step.url.startsWith(APP)) return step;
      const res = await this.external(step);
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        step = { kind: "get", url: new URL(location, step.url).href };
        continue;
      }
      const html = await res.text();
      expect(res.status, `${step.url}: ${html.slice(0, 500)}`).toBe(200);
      const form = parseForm(html, step.url);
      if (!form) throw new Error(`No form at ${step.url}: ${html.slice(0, 500)}`);
      for (const [name, value] of Object.entries(fill)) if (name in form.fields) form.fields[name] = value;
      step = { kind: "post", url: form.action, fields: form.fields };
    }
    throw new Error("The identity provider never sent the browser back");
  }
}

const decode = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&#039;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:-]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) found[m[1].toLowerCase()] = decode(m[3] ?? m[4] ?? "");
  return found;
}

/** The first POST form of a page: its absolute action and the values it would send. */
export function parseForm(html: string, pageUrl: string): { action: string; fields: Record<string, string> } | null {
  const match = html.match(/<form\b[^>]*>[\s\S]*?<\/form>/i);
  if (!match) return null;
  const open = attributes(match[0].match(/<form\b[^>]*>/i)![0]);
  const fields: Record<string, string> = {};
  for (const input of match[0].matchAll(/<input\b[^>]*>/gi)) {
    const a = attributes(input[0]);
    if (!a.name || ("disabled" in a && a.disabled !== "false")) continue;
    if ((a.type === "checkbox" || a.type === "radio") && !/\bchecked\b/i.test(input[0])) continue;
    fields[a.name] = a.value ?? "";
  }
  return { action: new URL(open.action ?? "", pageUrl).href, fields };
}
