import "server-only";
/**
 * BASE_URL when it is an absolute URL, else null. Jobs, which have no request, build their links
 * from it alone.
 */
export function configuredBaseUrl(): string | null {
  const base = process.env.BASE_URL?.trim();
  // vitest sets BASE_URL to "/" (environment.md, trap 8): only an absolute URL counts.
  if (base && /^https?:\/\/[^/]/i.test(base)) return base.replace(/\/+$/, "");
  return null;
}

/**
 * The address that links in mails point to: BASE_URL when it is an absolute URL, else the
 * origin the request came to. Production should set BASE_URL: a request's Host header is the
 * client's to choose, so a link built from it could point elsewhere.
 */
export function appUrl(req: Request): string {
  return configuredBaseUrl() ?? new URL(req.url).origin;
}
