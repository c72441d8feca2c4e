import "server-only";
/**
 * `Content-Disposition: attachment` with both names RFC 6266 asks for: an ASCII `filename` for old
 * clients (accents dropped, anything else replaced) and the exact name as UTF-8 in `filename*`.
 */
export function attachmentDisposition(name: string): string {
  const ascii =
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      // Quotes and backslashes would end the quoted string; some clients decode % sequences.
      .replace(/[^\x20-\x7e]|["\\%]/g, "_") || "download";
  // RFC 5987 attr-chars: encodeURIComponent leaves ' ( ) * unencoded, which are not allowed there.
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
