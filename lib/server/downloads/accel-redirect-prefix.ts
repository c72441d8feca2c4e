import "server-only";

/**
 * ACCEL_REDIRECT_PREFIX (for example `/_coffre_blobs/`): behind nginx, a download answers with
 * its headers and `X-Accel-Redirect: <prefix><ab/cd/blob id>` and no body; nginx then sends the
 * blob itself from an `internal` location whose `alias` is the blob folder (README, "Behind
 * nginx"). A file of its own: server.ts checks it at start without loading the download code.
 */
export function accelRedirectPrefix(env: Record<string, string | undefined> = process.env): string | null {
  const prefix = env.ACCEL_REDIRECT_PREFIX?.trim();
  if (!prefix) return null;
  if (!/^\/[A-Za-z0-9._~\-/]*\/$/.test(prefix)) {
    throw new Error(`ACCEL_REDIRECT_PREFIX must be a path that starts and ends with "/" (got ${JSON.stringify(prefix)})`);
  }
  return prefix;
}
