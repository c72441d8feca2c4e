import type { Item } from "./files";

/**
 * Where the zip of these items is served (GET /api/zip/…, streamed by the Node server): a folder
 * alone by its own address, anything else as a selection (files by File id).
 */
export function zipUrl(items: Item[], name?: string): string {
  if (items.length === 1 && items[0].kind === "folder") return `/api/zip/folder/${items[0].id}`;
  const ids = (kind: Item["kind"]) => items.filter((i) => i.kind === kind).map((i) => i.id).join(",");
  const query = new URLSearchParams({ files: ids("file"), folders: ids("folder"), ...(name ? { name } : {}) });
  return `/api/zip?${query}`;
}
