import { describe, expect, it } from "vitest";
import { clientAddress, parseTrustedProxies } from "@/lib/server/http/client-address";

// Issue 11, finding 8 (api.md, "Client address").
describe("clientAddress", () => {
  const none = parseTrustedProxies("");
  const proxies = parseTrustedProxies("10.0.0.1, 192.168.0.0/16, fd00::/8");

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", () => {
    expect(clientAddress("203.0.113.9", "1.2.3.4", none)).toBe("203.0.113.9");
    expect(clientAddress("::ffff:203.0.113.9", "1.2.3.4, 5.6.7.8", none)).toBe("203.0.113.9");
    expect(clientAddress("203.0.113.9", "1.2.3.4", proxies)).toBe("203.0.113.9");
  });

  it("takes the right-most entry that is not a trusted proxy when the peer is one", () => {
    expect(clientAddress("10.0.0.1", "1.2.3.4", proxies)).toBe("1.2.3.4");
    expect(clientAddress("::ffff:10.0.0.1", "6.6.6.6, 1.2.3.4, 192.168.4.4", proxies)).toBe("1.2.3.4");
    expect(clientAddress("fd12::1", ["6.6.6.6", "2001:db8::5"], proxies)).toBe("2001:db8::5");
  });

  it("falls back to the peer when the header is missing or holds garbage", () => {
    expect(clientAddress("10.0.0.1", undefined, proxies)).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", "not-an-address", proxies)).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", "192.168.1.1, 10.0.0.1", proxies)).toBe("192.168.1.1");
    expect(clientAddress(undefined, "1.2.3.4", none)).toBe("unknown");
  });

  it("refuses a malformed TRUSTED_PROXIES at start", () => {
    expect(() => parseTrustedProxies("10.0.0.1, proxy.example")).toThrow(/TRUSTED_PROXIES/);
  });
});
