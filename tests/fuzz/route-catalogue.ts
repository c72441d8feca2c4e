import fs from "node:fs";
import path from "node:path";

export type RouteModule = Record<string, unknown>;
export type RouteEntry = { file: string; template: string; params: { name: string; catchAll: boolean }[] };

const API_DIR = path.resolve(import.meta.dirname, "../../app/api");

/** Every app/api/**\/route.ts with its URL template and path parameters. */
export function listRoutes(): RouteEntry[] {
  const found: RouteEntry[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), [...segments, entry.name]);
      else if (entry.name === "route.ts") {
        const params = segments
          .filter((s) => s.startsWith("["))
          .map((s) => ({ name: s.replace(/^\[+(\.\.\.)?|\]+$/g, ""), catchAll: s.includes("...") }));
        found.push({ file: path.join(dir, entry.name), template: `/api/${segments.join("/")}`, params });
      }
    }
  };
  walk(API_DIR, []);
  return found.sort((a, b) => a.template.localeCompare(b.template));
}
