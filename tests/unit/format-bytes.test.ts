import { describe, expect, it } from "vitest";
import { formatBytes } from "@/components/file-browser/format";

// Issue 32: sizes in the reader's units; French counts octets (o, Ko, Mo, Go).
describe("formatBytes", () => {
  it("writes bytes in English units with English digits", () => {
    expect(formatBytes(512, "en")).toBe("512 B");
    expect(formatBytes(1536, "en")).toBe("1.5 KB");
    expect(formatBytes(6 * 1024 ** 3, "en")).toBe("6 GB");
  });

  it("writes octets in French, with the French decimal comma", () => {
    expect(formatBytes(0, "fr")).toBe("0 o");
    expect(formatBytes(1536, "fr")).toBe("1,5 Ko");
    expect(formatBytes(5.5 * 1024 ** 2, "fr-FR")).toBe("5,5 Mo");
    expect(formatBytes(208_314 * 1024 ** 2, "fr")).toBe("203 Go");
  });

  it("keeps B, KB, MB in the other catalogues' languages", () => {
    expect(formatBytes(1536, "de")).toBe("1,5 KB");
    expect(formatBytes(2 * 1024 ** 4, "zh-CN")).toBe("2 TB");
  });
});
