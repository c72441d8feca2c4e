import "server-only";
/**
 * The seal's CMS where it lives: hex digits in the last signature's /Contents, the gap its
 * /ByteRange leaves. Read with node-forge (bit strings kept as bytes, the placeholder's zeros
 * after the DER ignored) and written back into the same gap, so the signed byte ranges never move.
 */
import { createHash, timingSafeEqual, type X509Certificate, verify } from "node:crypto";
import forge from "node-forge";

export const { Class, Type } = forge.asn1;
export type Asn1 = forge.asn1.Asn1;

// @types/node-forge declares only the old boolean argument; node-forge 1.x takes these options.
const fromDerWith = forge.asn1.fromDer as unknown as (der: string, options: { parseAllBytes: boolean; decodeBitStrings: boolean }) => Asn1;

/** DER bytes → forge's tree; `exact` refuses trailing bytes. Throws unless forge re-encodes it byte for byte. */
export function parseDer(bytes: Uint8Array | string, exact = true): Asn1 {
  const der = typeof bytes === "string" ? bytes : Buffer.from(bytes).toString("binary");
  const asn1 = fromDerWith(der, { parseAllBytes: exact, decodeBitStrings: false });
  const again = forge.asn1.toDer(asn1).getBytes();
  if (der.slice(0, again.length) !== again) throw new Error("Not DER: it does not re-encode identically");
  return asn1;
}

/** forge's tree → DER bytes. */
export const toBytes = (asn1: Asn1): Buffer => Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");

/** The children of a constructed value. */
export const kids = (asn1: Asn1 | undefined): Asn1[] => (Array.isArray(asn1?.value) ? (asn1.value as Asn1[]) : []);

/** The content bytes of a primitive value (OCTET STRING, INTEGER...). */
export const contentOf = (asn1: Asn1 | undefined): Buffer => Buffer.from(typeof asn1?.value === "string" ? asn1.value : "", "binary");

/** The dotted OID of an OBJECT IDENTIFIER value. */
export const oidOf = (asn1: Asn1 | undefined): string => (asn1 && typeof asn1.value === "string" && asn1.type === Type.OID ? forge.asn1.derToOid(asn1.value) : "");

export const isContext = (asn1: Asn1 | undefined, tag: number) => asn1?.tagClass === Class.CONTEXT_SPECIFIC && asn1.type === tag;

/** Constant-time equality of two byte strings of any length. */
export const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** A serial number as upper hex without leading zero octets: an INTEGER's content, or X509Certificate.serialNumber. */
export const serialHex = (serial: Asn1 | string | undefined) => (typeof serial === "string" ? serial : contentOf(serial).toString("hex")).replace(/^(00)+/, "").toUpperCase();

export const sha = (algorithm: "sha1" | "sha256", data: Uint8Array) => createHash(algorithm).update(data).digest();

const HASHES: Record<string, string> = {
  "1.3.14.3.2.26": "sha1",
  "2.16.840.1.101.3.4.2.1": "sha256",
  "2.16.840.1.101.3.4.2.2": "sha384",
  "2.16.840.1.101.3.4.2.3": "sha512",
};
const SIGNATURES: Record<string, string> = {
  "1.2.840.113549.1.1.5": "sha1",
  "1.2.840.113549.1.1.11": "sha256",
  "1.2.840.113549.1.1.12": "sha384",
  "1.2.840.113549.1.1.13": "sha512",
  "1.2.840.10045.4.3.2": "sha256",
  "1.2.840.10045.4.3.3": "sha384",
  "1.2.840.10045.4.3.4": "sha512",
};

/** A digest algorithm's OID as node names it (sha256...), or "" when unknown. */
export const hashName = (oid: string) => HASHES[oid] ?? "";

/**
 * Whether `signature` over `data` verifies with the certificate's key: `algorithm` a signature
 * algorithm OID (sha256WithRSAEncryption, ecdsa-with-SHA256...), or rsaEncryption / ecPublicKey
 * with the digest given apart (CMS SignerInfo).
 */
export function verifies(certificate: X509Certificate, algorithm: string, digest: string, data: Uint8Array, signature: Uint8Array): boolean {
  const hash = SIGNATURES[algorithm] ?? (algorithm === "1.2.840.113549.1.1.1" || algorithm === "1.2.840.10045.2.1" ? hashName(digest) : "");
  if (!hash) return false;
  const ec = certificate.publicKey.asymmetricKeyType === "ec";
  try {
    return verify(hash, data, ec ? { key: certificate.publicKey, dsaEncoding: "der" } : certificate.publicKey, signature);
  } catch {
    return false;
  }
}

/** SignedData's fields of a CMS ContentInfo. */
export function signedDataOf(contentInfo: Asn1): Asn1[] {
  return kids(kids(kids(contentInfo)[1])[0]);
}

/** SignedData.signerInfos[0] of a ContentInfo, as its list of fields. */
export function firstSignerInfo(contentInfo: Asn1): Asn1[] {
  const signerInfos = signedDataOf(contentInfo).at(-1);
  if (signerInfos?.type !== Type.SET || !kids(signerInfos).length) throw new Error("The CMS has no signer infos");
  return kids(kids(signerInfos)[0]);
}

/** The certificates a SignedData carries ([0] IMPLICIT), DER. */
export function certificatesOf(contentInfo: Asn1): Uint8Array[] {
  const set = signedDataOf(contentInfo).find((v) => isContext(v, 0));
  return kids(set).map((c) => new Uint8Array(toBytes(c)));
}

export type SealCms = { cms: Asn1; hole: { start: number; end: number } };

/** The last signature's CMS in a PDF. */
export function readSealCms(pdf: Uint8Array): SealCms {
  const hole = contentsHole(pdf);
  const hex = Buffer.from(pdf.subarray(hole.start, hole.end)).toString("latin1");
  const cms = parseDer(Buffer.from(hex.length % 2 ? `${hex}0` : hex, "hex").toString("binary"), false);
  return { cms, hole };
}

/** A copy of the PDF with `cms` in place of the last signature's, zero-padded to the same gap. */
export function writeSealCms(pdf: Uint8Array, { cms, hole }: SealCms): Uint8Array {
  const hex = toBytes(cms).toString("hex");
  if (hex.length > hole.end - hole.start) throw new Error("The seal's CMS outgrew its placeholder");
  const out = new Uint8Array(pdf);
  out.set(Buffer.from(hex.padEnd(hole.end - hole.start, "0"), "latin1"), hole.start);
  return out;
}

/** The /Contents value of the last signature as stored (placeholder zeros included): what a DSS VRI key hashes. */
export function sealContentsBytes(pdf: Uint8Array): Buffer {
  const hole = contentsHole(pdf);
  return Buffer.from(Buffer.from(pdf.subarray(hole.start, hole.end)).toString("latin1"), "hex");
}

/** The hex digits of the last signature's /Contents: the gap its /ByteRange leaves. */
function contentsHole(pdf: Uint8Array): { start: number; end: number } {
  const tail = Buffer.from(pdf.subarray(Math.max(0, pdf.length - 4 * 1024 * 1024))).toString("latin1");
  const offset = pdf.length - tail.length;
  const at = tail.lastIndexOf("/ByteRange");
  const match = at >= 0 ? /^\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(tail.slice(at)) : null;
  if (!match) throw new Error("The sealed PDF has no /ByteRange");
  const gapStart = Number(match[1]) + Number(match[2]);
  const gapEnd = Number(match[3]);
  if (pdf[gapStart] !== 0x3c || pdf[gapEnd - 1] !== 0x3e || gapEnd <= gapStart + 2 || offset > gapStart) {
    throw new Error("The sealed PDF's /Contents is not where its /ByteRange says");
  }
  return { start: gapStart + 1, end: gapEnd - 1 };
}
