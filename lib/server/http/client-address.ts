import "server-only";
import { BlockList, isIP } from "node:net";

// api.md, "Client address": the socket's address, unless TRUSTED_PROXIES names the peer; then the
// right-most X-Forwarded-For entry that is not a trusted proxy. Only this module decides it; the
// server in front of Next writes the result into the request before anything reads it.

/** TRUSTED_PROXIES: a comma list of addresses and CIDR ranges (IPv4 or IPv6). */
export function parseTrustedProxies(value: string | undefined): BlockList {
  const list = new BlockList();
  for (const raw of (value ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const [address, bits] = raw.split("/");
    const family = isIP(address);
    if (!family) throw new Error(`TRUSTED_PROXIES: "${raw}" is not an address or a CIDR range`);
    const type = family === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

const plain = (address: string) => address.trim().replace(/^::ffff:(?=\d+\.)/, "");

/** True when the socket's peer is one of TRUSTED_PROXIES (so its forwarding headers count). */
export const isTrustedProxy = (peer: string | undefined, trusted: BlockList) => isTrusted(trusted, plain(peer ?? ""));

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  if (!family) return false;
  // An IPv4 peer reached over a dual-stack socket appears as ::ffff:a.b.c.d; both spellings match.
  return list.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The address of the client behind `peer` (the socket's remote address): X-Forwarded-For is read
 * only when the peer is a trusted proxy, and then right to left, skipping further trusted proxies.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: BlockList): string {
  const socket = plain(peer ?? "") || "unknown";
  if (!isTrusted(trusted, socket)) return socket;
  const hops = [forwardedFor ?? []].flat().join(",").split(",").map(plain).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isIP(hops[i])) return socket;
    if (!isTrusted(trusted, hops[i])) return hops[i];
  }
  return hops[0] ?? socket;
}
