import "server-only";
import type { RequestInfo } from "../context";

/**
 * Client address: server.ts, in front of Next, replaces X-Forwarded-For with the address it decided
 * from the socket and TRUSTED_PROXIES (lib/server/http/client-address.ts), so the last entry is it.
 */
export function requestInfo(req: Request): RequestInfo {
  const forwarded = req.headers.get("x-forwarded-for");
  const ip = forwarded?.split(",").map((s) => s.trim()).filter(Boolean).at(-1) ?? req.headers.get("x-real-ip") ?? "unknown";
  return { ip: ip.replace(/^::ffff:/, ""), userAgent: req.headers.get("user-agent") };
}
