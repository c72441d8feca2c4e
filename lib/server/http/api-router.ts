import "server-only";

/** A route file of app/api, by its location (`/api/file/[fileId]/download`), and its module's loader. */
export type RouteFile = { template: string; load: () => Promise<unknown> };

type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "catchAll"; name: string; optional: boolean };

type CompiledRoute = { template: string; segments: Segment[]; load: () => Promise<unknown> };

export type RouteMatch = { template: string; load: () => Promise<unknown>; params: Record<string, string | string[]> };

/** Next's precedence within one segment: a fixed name, then `[param]`, then `[...rest]`, then `[[...rest]]`. */
const RANK = { static: 0, param: 1, catchAll: 2, optional: 3 } as const;

function compile(template: string): Segment[] {
  return template
    .split("/")
    .filter(Boolean)
    .map((part): Segment => {
      const catchAll = /^\[(\[)?\.\.\.(\w+)\]\]?$/.exec(part);
      if (catchAll) return { kind: "catchAll", name: catchAll[2], optional: catchAll[1] === "[" };
      const param = /^\[(\w+)\]$/.exec(part);
      return param ? { kind: "param", name: param[1] } : { kind: "static", value: part };
    });
}

const rankOf = (segment: Segment) => (segment.kind === "catchAll" && segment.optional ? RANK.optional : RANK[segment.kind]);

/** Lower first: segment by segment, the more specific kind wins, as Next resolves app routes. */
function byPrecedence(a: CompiledRoute, b: CompiledRoute): number {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const left = a.segments[i];
    const right = b.segments[i];
    if (!left || !right) return left ? 1 : -1;
    const diff = rankOf(left) - rankOf(right);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** Path parameters arrive percent-encoded, as Next decodes them; a malformed one stays raw (zod refuses it). */
export function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string | string[]> | undefined {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment.kind === "catchAll") {
      const rest = parts.slice(i);
      if (rest.length === 0 && !segment.optional) return undefined;
      if (rest.length > 0) params[segment.name] = rest.map(decodeSegment);
      return params;
    }
    const part = parts[i];
    // An empty segment (`//`) names nothing: never a parameter's value.
    if (!part) return undefined;
    if (segment.kind === "static") {
      if (segment.value !== part) return undefined;
    } else {
      params[segment.name] = decodeSegment(part);
    }
  }
  return parts.length === segments.length ? params : undefined;
}

/**
 * The app/api route files as a router: for a request path, the route file Next would pick and the
 * path's parameters, decoded (catch-alls as arrays). A trailing slash is the same path.
 */
export function apiRouter(files: RouteFile[]): (pathname: string) => RouteMatch | undefined {
  const routes = files.map(({ template, load }) => ({ template, load, segments: compile(template) })).sort(byPrecedence);
  return (pathname) => {
    const parts = pathname.split("/").filter((part, i, all) => part !== "" || (i > 0 && i < all.length - 1));
    for (const route of routes) {
      const params = matchSegments(route.segments, parts);
      if (params) return { template: route.template, load: route.load, params };
    }
    return undefined;
  };
}
