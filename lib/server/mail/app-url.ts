/**
 * The address that links in mails point to: BASE_URL when it is an absolute URL, else the
 * origin the request came to. Production should set BASE_URL: a request's Host header is the
 * client's to choose, so a link built from it could point elsewhere.
 */
export function appUrl(req: Request): string {
  const base = process.env.BASE_URL?.trim();
  // vitest sets BASE_URL to "/" (environment.md, trap 8): only an absolute URL counts.
  if (base && /^https?:\/\/[^/]/i.test(base)) return base.replace(/\/+$/, "");
  return new URL(req.url).origin;
}
