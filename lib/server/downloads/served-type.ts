import "server-only";
/**
 * How stored types are served (api.md, "Served types"). Types are sniffed from the bytes at upload
 * (files/content-type.ts); these helpers make serving safe for rows stored before that as well.
 */

/**
 * Nothing of a file runs with our origin: its own page gets a sandbox (no script, no same-origin
 * access, no form, no navigation of the parent). PDFs are the exception: browsers refuse to show
 * a PDF in a sandbox, and their viewer runs apart from our origin anyway.
 */
export const SANDBOX_CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

/** A syntactically sound type, else octet-stream: stored types of old rows came from clients. */
const TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;
export function servedType(mime: string | null | undefined): string {
  const type = (mime ?? "").toLowerCase().split(";")[0].trim();
  return TYPE_PATTERN.test(type) ? type : "application/octet-stream";
}

/**
 * The headers under which a stored type may be shown inline (api.md, "Served types"): always
 * nosniff, and the sandbox policy for everything but a PDF. The stored type is trusted only that
 * far: rows older than server-side sniffing carry what the client declared, and under nosniff
 * neither application/pdf nor an image type can run script whatever the bytes are, while any
 * other type (HTML, SVG, XML, unknown) is shown sandboxed.
 */
export function inlineSafetyHeaders(type: string): Record<string, string> {
  return { "X-Content-Type-Options": "nosniff", ...(type === "application/pdf" ? {} : { "Content-Security-Policy": SANDBOX_CSP }) };
}
