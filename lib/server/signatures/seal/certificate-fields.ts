import "server-only";
/** The fields of an X.509 certificate node's X509Certificate does not give as DER (RFC 5280, 4.1). */
import type { X509Certificate } from "node:crypto";
import { contentOf, isContext, kids, oidOf, parseDer, toBytes, Type, type Asn1 } from "./cms-in-pdf";

const tbsOf = (c: X509Certificate) => kids(kids(parseDer(c.raw))[0]);

/** The issuer or subject Name, DER (after the optional [0] version, serial and algorithm). */
export function nameDer(c: X509Certificate, which: "issuer" | "subject"): Buffer {
  const tbs = tbsOf(c);
  const issuerAt = isContext(tbs[0], 0) ? 3 : 2;
  return toBytes(tbs[which === "issuer" ? issuerAt : issuerAt + 2]);
}

/** The subjectPublicKey bits (without the unused-bits octet): what an OCSP issuerKeyHash hashes. */
export function publicKeyBits(c: X509Certificate): Buffer {
  const spki = parseDer(c.publicKey.export({ type: "spki", format: "der" }));
  return contentOf(kids(spki)[1]).subarray(1);
}

/** An extension's extnValue, parsed, or undefined. */
export function extension(c: X509Certificate, oid: string): Asn1 | undefined {
  const extensions = kids(kids(tbsOf(c).find((v) => isContext(v, 3)))[0]);
  const found = extensions.find((e) => oidOf(kids(e)[0]) === oid);
  return found ? parseDer(contentOf(kids(found).at(-1))) : undefined;
}

/** The subject key identifier, hex, or "". */
export const subjectKeyId = (c: X509Certificate) => contentOf(extension(c, "2.5.29.14")).toString("hex");

/** The OCSP responders the certificate's authority information access names. */
export function ocspUrls(c: X509Certificate): string[] {
  return [...(c.infoAccess ?? "").matchAll(/^OCSP - URI:(\S+)$/gm)].map((m) => m[1]).filter((u) => /^https?:\/\//i.test(u));
}

/** The http(s) URIs of the certificate's CRL distribution points (fullName, uniformResourceIdentifier [6]). */
export function crlUrls(c: X509Certificate): string[] {
  const urls: string[] = [];
  const walk = (v: Asn1 | undefined): void => {
    if (!v) return;
    if (isContext(v, 6) && typeof v.value === "string") urls.push(Buffer.from(v.value, "binary").toString("latin1"));
    else if (v.constructed || v.type === Type.SEQUENCE) kids(v).forEach(walk);
  };
  walk(extension(c, "2.5.29.31"));
  return urls.filter((u) => /^https?:\/\//i.test(u));
}
