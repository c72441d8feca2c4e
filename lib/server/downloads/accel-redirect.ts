import "server-only";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { PreparedDownload } from "./prepare-download";

/**
 * ACCEL_REDIRECT_PREFIX (for example `/_coffre_blobs/`): behind nginx, a download answers with
 * its headers and `X-Accel-Redirect: <prefix><ab/cd/blob id>` and no body; nginx then sends the
 * blob itself from an `internal` location whose `alias` is the blob folder (README, "Behind
 * nginx"). Rights, tokens, counters and the 304 check stay here; nginx applies the client's
 * `Range` to the whole blob, so a ranged answer is handed over as the whole file.
 */
export function accelRedirectPrefix(env: Record<string, string | undefined> = process.env): string | null {
  const prefix = env.ACCEL_REDIRECT_PREFIX?.trim();
  if (!prefix) return null;
  if (!/^\/[A-Za-z0-9._~\-/]*\/$/.test(prefix)) {
    throw new Error(`ACCEL_REDIRECT_PREFIX must be a path that starts and ends with "/" (got ${JSON.stringify(prefix)})`);
  }
  return prefix;
}

/** What nginx works out for the bytes it sends. */
const PROXY_DECIDES = new Set(["Content-Length", "Content-Range"]);

/** The status and headers that hand a prepared download to the proxy in front, or null to send it ourselves. */
export function accelRedirect(prepared: PreparedDownload): { status: number; headers: Record<string, string> } | null {
  const prefix = accelRedirectPrefix();
  const relative = prefix && prepared.body ? getBlobStore().relativePath(prepared.body.blobId) : null;
  if (!relative) return null;
  const headers = Object.fromEntries(Object.entries(prepared.headers).filter(([name]) => !PROXY_DECIDES.has(name)));
  return { status: 200, headers: { ...headers, "X-Accel-Redirect": `${prefix}${relative}` } };
}
