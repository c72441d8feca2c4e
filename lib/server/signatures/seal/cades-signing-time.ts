import "server-only";
/**
 * @libpdf/core 0.4 always puts a signing-time attribute in the CMS it signs, which PAdES baseline
 * forbids (ETSI EN 319 142-1, Table 1: the claimed time belongs in the signature dictionary's /M
 * alone; LibPDF-js/core issue 86). The document digest lives in the messageDigest attribute and
 * the /Contents hole is outside the signed byte range, so the attribute can be taken out after
 * signing: the remaining signed attributes are signed again with the same key and the CMS is
 * written back into the same hole (cms-in-pdf.ts).
 */
import type { DigestAlgorithm, Signer } from "@libpdf/core";
import forge from "node-forge";
import { Class, firstSignerInfo, kids, oidOf, readSealCms, toBytes, Type, writeSealCms } from "./cms-in-pdf";

const SIGNING_TIME = "1.2.840.113549.1.9.5";

export async function removeCmsSigningTime(pdf: Uint8Array, signer: Signer, digest: DigestAlgorithm): Promise<Uint8Array> {
  const sealCms = readSealCms(pdf);
  const signerInfo = firstSignerInfo(sealCms.cms);
  const attrsAt = signerInfo.findIndex((v) => v.tagClass === Class.CONTEXT_SPECIFIC && v.type === 0);
  if (attrsAt < 0) throw new Error("The seal's CMS has no signed attributes");
  const attributes = kids(signerInfo[attrsAt]);
  const kept = attributes.filter((a) => oidOf(kids(a)[0]) !== SIGNING_TIME);
  if (kept.length === attributes.length) return pdf;
  signerInfo[attrsAt].value = kept;

  // The signature covers the attributes encoded as a SET (RFC 5652, 5.4), in the order they are stored.
  const toSign = toBytes(forge.asn1.create(Class.UNIVERSAL, Type.SET, true, kept));
  const signature = await signer.sign(new Uint8Array(toSign), digest);
  const signatureAt = signerInfo.findIndex((v, i) => i > attrsAt + 1 && v.tagClass === Class.UNIVERSAL && v.type === Type.OCTETSTRING);
  if (signatureAt < 0) throw new Error("The seal's CMS has no signature value");
  signerInfo[signatureAt].value = Buffer.from(signature).toString("binary");
  return writeSealCms(pdf, sealCms);
}
