import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { operationNotesFile } from "./operation-notes-scan";

const FILE = path.resolve(import.meta.dirname, "../../../lib/server/openapi/operation-notes.ts");

describe("each operation's summary and error statuses (lib/server/openapi/operation-notes.ts)", () => {
  it("is up to date with the route files' comments and the services' AppError codes", () => {
    const expected = operationNotesFile();
    if (process.env.UPDATE_ROUTE_LIST === "1") writeFileSync(FILE, expected);
    expect(readFileSync(FILE, "utf8")).toBe(expected);
  });

  it("names what the services throw: a lock on a file change, a full quota on a folder creation, a spent link", async () => {
    const { OPERATION_NOTES } = await import("@/lib/server/openapi/operation-notes");
    expect(OPERATION_NOTES["PUT /api/file/{fileId}"].errors).toContain(423);
    expect(OPERATION_NOTES["POST /api/folder"].errors).toContain(507);
    expect(OPERATION_NOTES["POST /api/share/key/{key}/passcheck"].errors).toContain(410);
    expect(OPERATION_NOTES["GET /api/folder/{folderId}"]?.errors ?? []).not.toContain(507);
    expect(OPERATION_NOTES["PUT /api/folder/{folderId}"].summary).toMatch(/^[A-Z]/);
  });
});
