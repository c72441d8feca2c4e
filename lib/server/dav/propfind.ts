import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Element } from "@xmldom/xmldom";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { notFoundUnless, streamMultistatus, type DavResponse, type PropStat } from "./dav-response";
import { resolveDavPath, davHref } from "./dav-path";
import { childPagesOf, etagOf, quotasOf, resourceKey, resourceOf, type DavQuota, type DavResource } from "./dav-resources";
import { childElements, clark, DAV_NS, escapeXml, isDav, LIVE_PROPERTIES, parseXml, readSmallBody, type PropName } from "./dav-xml";
import { deadPropsOf } from "./dead-props";
import { lockDiscoveries } from "./dav-locks";

type Request = { kind: "allprop"; include: PropName[] } | { kind: "propname" } | { kind: "prop"; props: PropName[] };

/** Computed on request only (RFC 4331: not part of allprop). */
const ON_REQUEST = ["quota-used-bytes", "quota-available-bytes"];

/** What the properties of an answer need beyond the listed rows, each kind loaded for every resource at once. */
type Loaded = { dead: Map<string, Map<string, string>>; locks: Map<string, string>; quotas: Map<number, DavQuota> };

/**
 * PROPFIND (RFC 4918, 9.1): Depth 0 or 1; `infinity` (or no Depth) refused with 403 propfind-finite-depth.
 * A listing costs the same number of statements whatever its size (issue 25, finding 9): the
 * members in one go, then each kind of property asked (dead properties, locks, quotas) for all
 * of them at once; the answer is serialised while it streams out.
 */
export async function propfind(ctx: AuthedCtx, req: IncomingMessage, res: ServerResponse, segments: string[]): Promise<void> {
  const depth = parseDepth(req.headers.depth);
  const request = parsePropfind(await parseXml(await readSmallBody(req)));
  const target = await resolveDavPath(ctx, segments);
  const self = notFoundUnless(resourceOf(target), target);
  await streamMultistatus(res, responsesOf(ctx, depth === 1 ? withChildren(ctx, self) : single(self), request));
}

async function* single(resource: DavResource): AsyncGenerator<DavResource[]> {
  yield [resource];
}

async function* withChildren(ctx: AuthedCtx, self: DavResource): AsyncGenerator<DavResource[]> {
  const pages = childPagesOf(ctx, self);
  // The subfolders and the rights before a byte goes out: a failure there is still an error answer.
  const first = await pages.next();
  yield first.done ? [self] : [self, ...first.value];
  yield* pages;
}

/** The responses, a page of resources at a time: each page's properties in the same few statements. */
async function* responsesOf(ctx: AuthedCtx, pages: AsyncIterable<DavResource[]>, request: Request): AsyncGenerator<DavResponse> {
  for await (const resources of pages) {
    const loaded = await loadProperties(ctx, resources, request);
    for (const resource of resources) yield { href: davHref(resource.segments, resource.kind !== "file"), propstats: propstatsOf(resource, request, loaded) };
  }
}

const asks = (request: Request, name: string) =>
  request.kind === "propname" ||
  (request.kind === "allprop" && (!ON_REQUEST.includes(name) || request.include.some((p) => p.ns === DAV_NS && p.name === name))) ||
  (request.kind === "prop" && request.props.some((p) => p.ns === DAV_NS && p.name === name));

/** Only what the request asks is loaded; propname needs the names of dead properties, no value of a live one. */
async function loadProperties(ctx: AuthedCtx, resources: DavResource[], request: Request): Promise<Loaded> {
  const wantsDead = request.kind !== "prop" || request.props.some((p) => !(p.ns === DAV_NS && LIVE_PROPERTIES.has(p.name)));
  const [dead, locks, quotas] = await Promise.all([
    wantsDead ? deadPropsOf(ctx, resources) : new Map<string, Map<string, string>>(),
    request.kind !== "propname" && asks(request, "lockdiscovery") ? lockDiscoveries(ctx, resources) : new Map<string, string>(),
    request.kind !== "propname" && ON_REQUEST.some((name) => asks(request, name)) ? quotasOf(ctx, resources) : new Map<number, DavQuota>(),
  ]);
  return { dead, locks, quotas };
}

function parseDepth(header: string | string[] | undefined): 0 | 1 {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase() ?? "infinity";
  if (value === "0") return 0;
  if (value === "1") return 1;
  if (value === "infinity") throw new AppError("forbidden", "PROPFIND with Depth: infinity is not supported", { dav: "propfind-finite-depth" });
  throw new AppError("invalid_request", `Depth must be 0, 1 or infinity, not ${value}`);
}

function parsePropfind(doc: Awaited<ReturnType<typeof parseXml>>): Request {
  if (!doc) return { kind: "allprop", include: [] };
  const root = doc.documentElement!;
  if (!isDav(root, "propfind")) throw new AppError("invalid_request", "The body must be a DAV:propfind element");
  const children = childElements(root);
  const prop = children.find((c) => isDav(c, "prop"));
  if (children.some((c) => isDav(c, "propname"))) return { kind: "propname" };
  if (children.some((c) => isDav(c, "allprop"))) {
    const include = children.find((c) => isDav(c, "include"));
    return { kind: "allprop", include: include ? namesIn(include) : [] };
  }
  if (prop) return { kind: "prop", props: namesIn(prop) };
  throw new AppError("invalid_request", "DAV:propfind needs prop, allprop or propname");
}

export function namesIn(element: Element): PropName[] {
  return childElements(element).map((e) => ({ ns: e.namespaceURI ?? "", name: e.localName ?? e.nodeName }));
}

function propstatsOf(resource: DavResource, request: Request, loaded: Loaded): PropStat[] {
  const live = liveProps(resource, request, loaded);
  const key = resourceKey(resource);
  const dead = (key && loaded.dead.get(key)) || new Map<string, string>();
  if (request.kind === "propname") {
    const names = [...live.keys(), ...dead.keys()].map((k) => ({ name: parseClark(k), inner: null }));
    return [{ status: 200, props: names }];
  }
  const found: PropStat["props"] = [];
  const missing: PropStat["props"] = [];
  if (request.kind === "allprop") {
    for (const [k, inner] of live) if (asks(request, parseClark(k).name)) found.push({ name: parseClark(k), inner });
    for (const [k, value] of dead) found.push({ name: parseClark(k), inner: value });
  } else {
    for (const p of request.props) {
      const k = clark(p);
      if (live.has(k)) found.push({ name: p, inner: live.get(k)! });
      else if (dead.has(k)) found.push({ name: p, inner: dead.get(k)! });
      else missing.push({ name: p, inner: null });
    }
  }
  const out: PropStat[] = [];
  if (found.length) out.push({ status: 200, props: found });
  if (missing.length) out.push({ status: 404, props: missing });
  if (!out.length) out.push({ status: 200, props: [] });
  return out;
}

function parseClark(key: string): PropName {
  const close = key.indexOf("}");
  return { ns: key.slice(1, close), name: key.slice(close + 1) };
}

/** The live properties of a resource, by Clark name, as XML content. */
function liveProps(resource: DavResource, request: Request, loaded: Loaded): Map<string, string> {
  const d = (name: string) => `{${DAV_NS}}${name}`;
  const props = new Map<string, string>();
  const collection = resource.kind !== "file";
  props.set(d("resourcetype"), collection ? "<D:collection/>" : "");
  const name = resource.kind === "root" ? "" : resource.kind === "folder" ? resource.folder.name : resource.file.name;
  props.set(d("displayname"), escapeXml(name));
  if (resource.kind === "file") {
    props.set(d("getcontentlength"), String(resource.version.size));
    props.set(d("getcontenttype"), escapeXml(resource.version.mime));
  }
  props.set(d("getetag"), escapeXml(etagOf(resource)));
  const modified = resource.kind === "file" ? resource.version.modifiedAt : resource.kind === "folder" ? resource.folder.modifiedAt : new Date(0);
  const created = resource.kind === "file" ? resource.file.createdAt : resource.kind === "folder" ? resource.folder.createdAt : new Date(0);
  props.set(d("getlastmodified"), modified.toUTCString());
  props.set(d("creationdate"), created.toISOString());
  props.set(
    d("supportedlock"),
    "<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>",
  );
  const key = resourceKey(resource);
  props.set(d("lockdiscovery"), (key && loaded.locks.get(key)) || "");
  if (resource.kind === "folder" && request.kind === "propname") {
    for (const quotaName of ON_REQUEST) props.set(d(quotaName), "");
  }
  const quota = resource.kind === "folder" ? loaded.quotas.get(resource.folder.id) : undefined;
  if (quota) {
    props.set(d("quota-used-bytes"), String(quota.used));
    if (quota.available !== null) props.set(d("quota-available-bytes"), String(quota.available));
  }
  return props;
}
