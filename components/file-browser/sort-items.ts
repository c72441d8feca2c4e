import type { Item } from "@/lib/queries/files";
import type { Sort } from "./file-list";

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/**
 * Folders first, then the chosen column. Folders and searches are ordered by the server; this
 * sorts the company and shared spaces' lists of spaces, which come whole in one answer.
 */
export function sortItems(items: Item[], sort: Sort): Item[] {
  const value = (item: Item): string | number => {
    if (sort.column === "size") return item.kind === "file" ? item.size : (item.size ?? -1);
    if (sort.column === "modification") return item.modification ? Date.parse(item.modification) : 0;
    if (sort.column === "owner") return item.owner ?? "";
    return item.name;
  };
  return [...items].sort((a, b) => {
    if (a.kind !== b.kind) return a.kind === "folder" ? -1 : 1;
    const [x, y] = [value(a), value(b)];
    const order = typeof x === "number" && typeof y === "number" ? x - y : collator.compare(String(x), String(y));
    return (order || collator.compare(a.name, b.name)) * sort.direction;
  });
}
