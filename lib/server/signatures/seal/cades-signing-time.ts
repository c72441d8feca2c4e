import "server-only";
/**
 * @libpdf/core 0.4 always puts a signing-time attribute in the CMS it signs, which PAdES baseline
 * forbids (ETSI EN 319 142-1, Table 1: the claimed time belongs in the signature dictionary's /M
 * alone; LibPDF-js/core issue 86). The document digest lives in the messageDigest attribute and
 * the /Contents hole is outside the signed byte range, so the attribute can be taken out after
 * signing: the remaining signed attributes are signed again with the same key and the CMS is
 * written back into the same hole.
 */
import type { DigestAlgorithm, Signer } from "@libpdf/core";
import forge from "node-forge";

const SIGNING_TIME = "1.2.840.113549.1.9.5";
const { Class, Type } = forge.asn1;
// @types/node-forge declares only the old boolean argument; node-forge 1.x takes these options.
const fromDer = forge.asn1.fromDer as unknown as (der: string, options: { parseAllBytes: boolean; decodeBitStrings: boolean }) => forge.asn1.Asn1;

export async function removeCmsSigningTime(pdf: Uint8Array, signer: Signer, digest: DigestAlgorithm): Promise<Uint8Array> {
  const hole = contentsHole(pdf);
  const hex = Buffer.from(pdf.subarray(hole.start, hole.end)).toString("latin1");
  const der = Buffer.from(hex.length % 2 ? `${hex}0` : hex, "hex").toString("binary");
  // Past the DER come the placeholder's zero bytes; bit strings stay as bytes (no guessing at ASN.1 inside).
  const cms = fromDer(der, { parseAllBytes: false, decodeBitStrings: false });
  const original = forge.asn1.toDer(cms).getBytes();
  // Only rewrite what forge reproduces byte for byte (certificates, algorithm parameters...).
  if (der.slice(0, original.length) !== original) throw new Error("The seal's CMS does not re-encode identically");

  const signerInfo = firstSignerInfo(cms);
  const attrsAt = signerInfo.findIndex((v) => v.tagClass === Class.CONTEXT_SPECIFIC && v.type === 0);
  if (attrsAt < 0) throw new Error("The seal's CMS has no signed attributes");
  const attributes = signerInfo[attrsAt].value as forge.asn1.Asn1[];
  const kept = attributes.filter((a) => forge.asn1.derToOid((a.value as forge.asn1.Asn1[])[0].value as string) !== SIGNING_TIME);
  if (kept.length === attributes.length) return pdf;
  signerInfo[attrsAt].value = kept;

  // The signature covers the attributes encoded as a SET (RFC 5652, 5.4), in the order they are stored.
  const toSign = forge.asn1.toDer(forge.asn1.create(Class.UNIVERSAL, Type.SET, true, kept)).getBytes();
  const signature = await signer.sign(new Uint8Array(Buffer.from(toSign, "binary")), digest);
  const signatureAt = signerInfo.findIndex((v, i) => i > attrsAt + 1 && v.tagClass === Class.UNIVERSAL && v.type === Type.OCTETSTRING);
  if (signatureAt < 0) throw new Error("The seal's CMS has no signature value");
  signerInfo[signatureAt].value = Buffer.from(signature).toString("binary");

  const rewritten = Buffer.from(forge.asn1.toDer(cms).getBytes(), "binary").toString("hex");
  if (rewritten.length > hole.end - hole.start) throw new Error("The seal's CMS outgrew its placeholder");
  const out = new Uint8Array(pdf);
  out.set(Buffer.from(rewritten.padEnd(hole.end - hole.start, "0"), "latin1"), hole.start);
  return out;
}

/** SignedData.signerInfos[0] of a ContentInfo, as its list of fields. */
function firstSignerInfo(contentInfo: forge.asn1.Asn1): forge.asn1.Asn1[] {
  const explicit = (contentInfo.value as forge.asn1.Asn1[])[1];
  const signedData = (explicit.value as forge.asn1.Asn1[])[0].value as forge.asn1.Asn1[];
  const signerInfos = signedData.at(-1)!;
  if (signerInfos.type !== Type.SET) throw new Error("The seal's CMS has no signer infos");
  return (signerInfos.value as forge.asn1.Asn1[])[0].value as forge.asn1.Asn1[];
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
