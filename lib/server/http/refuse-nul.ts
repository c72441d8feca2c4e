import "server-only";
import { AppError } from "../errors";

/**
 * No text value may hold a NUL: PostgreSQL cannot store one in text, so without this check it
 * became a 500 whose log carried the query and its parameters. Walks parsed input (path, query,
 * JSON body) once, before any schema, so every string of every route is covered.
 */
export function refuseNul(input: unknown, where: string): void {
  const path = findNul(input, []);
  if (path) {
    const at = [where, ...path].join(".");
    throw new AppError("invalid_request", `Invalid request: ${at} contains a NUL character`, [{ path: at, message: "NUL characters are not allowed" }]);
  }
}

// Iterative: a JSON body may nest deeper than the call stack.
function findNul(root: unknown, rootPath: string[]): string[] | null {
  const stack: [unknown, string[]][] = [[root, rootPath]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === "string") {
      if (value.includes("\u0000")) return path;
    } else if (value !== null && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (key.includes("\u0000")) return [...path, "(key)"];
        stack.push([inner, [...path, key]]);
      }
    }
  }
  return null;
}
