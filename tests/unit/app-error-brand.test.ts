import { describe, expect, it } from "vitest";
import { AppError, toErrorResponse } from "@/lib/server/errors";

// server.ts bundles its own copy of lib/server beside Next's; an AppError thrown by the other copy
// (the blob store or tus live on globalThis, made by whichever copy came first) keeps its status.
describe("AppError across module copies", () => {
  const BRAND: unique symbol = Symbol.for("coffre.AppError") as never;
  class OtherCopyAppError extends Error {
    readonly [BRAND] = true;
    readonly status = 507;
    constructor(
      readonly code: string,
      message: string,
      readonly details?: unknown,
      readonly headers?: Record<string, string>,
    ) {
      super(message);
    }
  }

  it("recognises an AppError made by another copy of the module, by its brand", async () => {
    const foreign = new OtherCopyAppError("insufficient_storage", "The server's storage is full");
    expect(foreign instanceof AppError).toBe(true);
    const res = toErrorResponse(foreign);
    expect(res.status).toBe(507);
    expect(await res.json()).toEqual({ error: "The server's storage is full", code: "insufficient_storage" });
  });

  it("does not take a plain error for one", () => {
    expect(new Error("x") instanceof AppError).toBe(false);
    expect(toErrorResponse(Object.assign(new Error("x"), { code: "insufficient_storage" })).status).toBe(500);
  });
});
