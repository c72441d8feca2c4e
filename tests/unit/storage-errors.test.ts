import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { AppError, toErrorResponse } from "@/lib/server/errors";
import { StorageError } from "@/lib/storage/storage-error";

// lib/storage has its own error type; the server maps it to the contract's (issue 19, part 2).
describe("storage errors", () => {
  it("map each code to the contract's status and code", async () => {
    const cases = [
      [new StorageError("not_found", "Blob not found"), 404, "not_found"],
      [new StorageError("over_limit", "Storage exhausted"), 507, "insufficient_storage"],
      [new StorageError("full", "The server's storage is full"), 507, "insufficient_storage"],
    ] as const;
    for (const [error, status, code] of cases) {
      const response = toErrorResponse(error);
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ code, error: error.message });
    }
  });

  it("come out of the stores services use as AppError", async () => {
    const store = getBlobStore();
    await expect(store.read("../../etc/passwd")).rejects.toBeInstanceOf(AppError);
    await expect(store.read("../../etc/passwd")).rejects.toMatchObject({ code: "not_found", status: 404 });
    const put = store.put(Readable.from([Buffer.alloc(60), Buffer.alloc(60)]), { maxBytes: 100 });
    await expect(put).rejects.toMatchObject({ code: "insufficient_storage", status: 507 });
  });
});
