import "server-only";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { accelRedirectPrefix } from "./accel-redirect-prefix";
import type { PreparedDownload } from "./prepare-download";

/** What nginx works out for the bytes it sends. */
const PROXY_DECIDES = new Set(["Content-Length", "Content-Range"]);

/**
 * The status and headers that hand a prepared download to the proxy in front (ACCEL_REDIRECT_PREFIX),
 * or null to send it ourselves. Rights, tokens, counters and the 304 check stay here; nginx applies
 * the client's `Range` to the whole blob, so a ranged answer is handed over as the whole file.
 */
export function accelRedirect(prepared: PreparedDownload): { status: number; headers: Record<string, string> } | null {
  const prefix = accelRedirectPrefix();
  const relative = prefix && prepared.body ? getBlobStore().relativePath(prepared.body.blobId) : null;
  if (!relative) return null;
  const headers = Object.fromEntries(Object.entries(prepared.headers).filter(([name]) => !PROXY_DECIDES.has(name)));
  return { status: 200, headers: { ...headers, "X-Accel-Redirect": `${prefix}${relative}` } };
}
