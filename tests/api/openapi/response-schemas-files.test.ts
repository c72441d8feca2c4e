import { describe, expect, it } from "vitest";
import { ROUTE_MODULES } from "@/app/api/openapi.json/route-modules";
import { fileResponse } from "@/lib/contracts/files";
import { folderResponse } from "@/lib/contracts/folders";
import type { Handler } from "@/lib/server/http/route";

// Issue 27, files side: every operation on files, folders, spaces, uploads, trash, archives, locks,
// annotations, previews, texts, timelines, versions and file tokens declares its answer.
const FILES_SIDE = /^\/api\/(file|folder|folders|root|roots|objectpath|trash|trashes|archive|archives|lock|locks|annotation|annotations|mixer|preview|token\/file)(\/|$)/;
const METHODS = ["GET", "POST", "PUT", "DELETE"] as const;

describe("response schemas of the files side (issue 27)", () => {
  it("every route() operation of these domains declares its response", async () => {
    const checked: string[] = [];
    const without: string[] = [];
    for (const { path, load } of ROUTE_MODULES) {
      if (!FILES_SIDE.test(path)) continue;
      const mod = (await load()) as Record<string, Handler | undefined>;
      for (const method of METHODS) {
        const spec = mod[method]?.spec;
        if (!spec || mod[method]?.endpoint === undefined) continue;
        checked.push(`${method} ${path}`);
        if (!spec.response) without.push(`${method} ${path}`);
      }
    }
    expect(without).toEqual([]);
    expect(checked.length).toBeGreaterThan(50);
  });

  it("holds the contract's types: int ids, ISO 8601 dates, counts present only when the contract says", () => {
    const file = {
      id: 12, guid: "g", name: "a.pdf", parent_id: 3, size: 10, creation: "2026-01-02T03:04:05.000Z", modification: "2026-01-02T03:04:05.000Z",
      can_download: true, can_write: true, can_edit: true, can_delete: true, can_share: true, hash: "0".repeat(32), lock: null,
    };
    expect(fileResponse.safeParse(file).success).toBe(true);
    expect(fileResponse.safeParse({ ...file, id: "12" }).success).toBe(false);
    expect(fileResponse.safeParse({ ...file, size: 1.5 }).success).toBe(false);
    expect(fileResponse.safeParse({ ...file, modification: "2 January 2026" }).success).toBe(false);
    expect(fileResponse.safeParse({ ...file, nb_versions: 1 }).success).toBe(false);
    expect(fileResponse.safeParse({ ...file, nb_versions: 2 }).success).toBe(true);
    expect(fileResponse.safeParse({ ...file, nb_annotations: 0 }).success).toBe(false);
    const folder = { id: 3, name: "F", parent_id: 0, can_read: true, can_download: true, can_write: true, can_edit: true, can_delete: true, can_share: true };
    expect(folderResponse.safeParse({ ...folder, content: { files: [file], folders: [folder] } }).success).toBe(true);
    expect(folderResponse.safeParse({ ...folder, content: { files: [{ ...file, parent_id: "3" }], folders: [] } }).success).toBe(false);
  });
});
