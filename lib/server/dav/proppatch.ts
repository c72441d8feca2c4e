import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Element, XMLSerializer } from "@xmldom/xmldom";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { isLockedForOthers, loadLocks } from "../locks/serialize-lock";
import { resolveDavPath, davHref } from "./dav-path";
import { notFoundUnless, sendMultistatus, type PropStat } from "./dav-response";
import { resourceOf } from "./dav-resources";
import { writeDeadProps } from "./dead-props";
import { childElements, DAV_NS, isDav, LIVE_PROPERTIES, loadXmldom, parseXml, readSmallBody, type PropName } from "./dav-xml";
import type { AssertWritable } from "./dav-handler";

/** A property value may not be larger than this (characters of XML). */
const MAX_VALUE = 64 * 1024;

/**
 * PROPPATCH (RFC 4918, 9.2): sets and removes dead properties in document order, all or
 * nothing (one refused: it gets 403, the others 424). Needs edit on a file's folder, write on a
 * folder; a file locked by someone else is 423.
 */
export async function proppatch(ctx: AuthedCtx, req: IncomingMessage, res: ServerResponse, segments: string[], assertWritable: AssertWritable): Promise<void> {
  const doc = await parseXml(await readSmallBody(req));
  if (!doc || !isDav(doc.documentElement!, "propertyupdate")) throw new AppError("invalid_request", "The body must be a DAV:propertyupdate element");
  const target = await resolveDavPath(ctx, segments);
  const resource = notFoundUnless(resourceOf(target), target);
  if (resource.kind === "root") throw forbidden("The root has no properties to change");
  if (target.kind === "file" && !target.rights.edit) throw forbidden("Changing a file's properties needs the edit right");
  if (target.kind === "folder" && !target.rights.write) throw forbidden("Changing a folder's properties needs the write right");
  if (resource.kind === "file" && isLockedForOthers((await loadLocks(ctx.db, [resource.file.id])).get(resource.file.id), ctx.actor.user.id)) {
    throw new AppError("locked", "This file is locked by another user");
  }
  await assertWritable(target);

  const serializer = new (await loadXmldom()).XMLSerializer();
  const changes: { name: PropName; value: string | null }[] = [];
  for (const action of childElements(doc.documentElement!)) {
    const set = isDav(action, "set");
    if (!set && !isDav(action, "remove")) continue;
    const prop = childElements(action).find((e) => isDav(e, "prop"));
    if (!prop) throw new AppError("invalid_request", "DAV:set and DAV:remove need a DAV:prop");
    for (const element of childElements(prop)) {
      const name = { ns: element.namespaceURI ?? "", name: element.localName ?? element.nodeName };
      changes.push({ name, value: set ? contentOf(element, serializer) : null });
    }
  }
  // Live properties are never stored as dead ones (403 cannot-modify-protected-property).
  const refused = changes.filter((c) => (c.name.ns === DAV_NS && LIVE_PROPERTIES.has(c.name.name)) || (c.value !== null && c.value.length > MAX_VALUE));
  let propstats: PropStat[];
  if (refused.length > 0) {
    const failed = changes.filter((c) => !refused.includes(c));
    propstats = [{ status: 403, props: refused.map((c) => ({ name: c.name, inner: null })), error: "" }];
    if (failed.length) propstats.push({ status: 424, props: failed.map((c) => ({ name: c.name, inner: null })) });
  } else {
    await ctx.db.transaction((tx) => writeDeadProps(tx, resource, changes));
    propstats = [{ status: 200, props: changes.map((c) => ({ name: c.name, inner: null })) }];
  }
  sendMultistatus(res, [{ href: davHref(resource.segments, resource.kind !== "file"), propstats }]);
}

/** The content of a property element as XML, each child carrying the namespaces it uses. */
function contentOf(element: Element, serializer: XMLSerializer): string {
  let out = "";
  for (let node = element.firstChild; node; node = node.nextSibling) out += serializer.serializeToString(node);
  return out;
}
