import { describe, expect, it } from "vitest";
import { loadOnce } from "@/lib/server/boot/load-once";

// What server.ts and the services load at first use (issue 26, cold start): one import shared by
// every caller, and a failed one tried again rather than kept.
describe("loadOnce", () => {
  it("loads once for callers that come together and for callers that come later", async () => {
    let loads = 0;
    const load = loadOnce(async () => ({ n: ++loads }));
    const [a, b] = await Promise.all([load(), load()]);
    const c = await load();
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(c).toBe(a);
  });

  it("forgets a failed load: the next call tries again", async () => {
    let loads = 0;
    const load = loadOnce(async () => {
      loads++;
      if (loads === 1) throw new Error("module missing");
      return "loaded";
    });
    await expect(load()).rejects.toThrow("module missing");
    await expect(load()).resolves.toBe("loaded");
    await expect(load()).resolves.toBe("loaded");
    expect(loads).toBe(2);
  });
});
