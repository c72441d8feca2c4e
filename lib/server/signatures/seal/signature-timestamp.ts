import "server-only";
/**
 * PAdES B-T: the seal's SignerInfo gets an RFC 3161 timestamp over its signature value, as the
 * unsigned attribute id-aa-signatureTimeStampToken (RFC 3161, appendix A; ETSI EN 319 122-1,
 * 5.3). Unsigned attributes sit outside both the signed attributes and the PDF's byte range, so
 * the CMS is rewritten in its /Contents hole without signing again.
 */
import forge from "node-forge";
import { Class, contentOf, firstSignerInfo, isContext, kids, oidOf, parseDer, readSealCms, toBytes, Type, writeSealCms } from "./cms-in-pdf";
import type { TsaSettings } from "./long-term";
import { requestTimestamp, type Timestamp } from "./timestamp-authority";

const SIGNATURE_TIMESTAMP_TOKEN = "1.2.840.113549.1.9.16.2.14";
const { create } = forge.asn1;

export async function addSignatureTimestamp(pdf: Uint8Array, tsa: TsaSettings, timeoutMs: number): Promise<{ pdf: Uint8Array; timestamp: Timestamp }> {
  const sealCms = readSealCms(pdf);
  const signerInfo = firstSignerInfo(sealCms.cms);
  const signedAttrsAt = signerInfo.findIndex((v) => isContext(v, 0));
  const signatureAt = signerInfo.findIndex((v, i) => i > signedAttrsAt + 1 && v.tagClass === Class.UNIVERSAL && v.type === Type.OCTETSTRING);
  if (signatureAt < 0) throw new Error("The seal's CMS has no signature value");
  if (signerInfo.slice(signatureAt + 1).some((v) => isContext(v, 1))) throw new Error("The seal's CMS already has unsigned attributes");

  const timestamp = await requestTimestamp(tsa, contentOf(signerInfo[signatureAt]), timeoutMs);
  const attribute = create(Class.UNIVERSAL, Type.SEQUENCE, true, [
    create(Class.UNIVERSAL, Type.OID, false, forge.asn1.oidToDer(SIGNATURE_TIMESTAMP_TOKEN).getBytes()),
    create(Class.UNIVERSAL, Type.SET, true, [parseDer(timestamp.token)]),
  ]);
  // unsignedAttrs [1] IMPLICIT SET OF Attribute, the SignerInfo's last field.
  signerInfo.splice(signatureAt + 1, 0, create(Class.CONTEXT_SPECIFIC, 1, true, [attribute]));
  return { pdf: writeSealCms(pdf, sealCms), timestamp };
}

/** The signature timestamp token of the seal's CMS (to test and to inspect), or null. */
export function sealTimestampToken(pdf: Uint8Array): { token: Uint8Array; signatureValue: Uint8Array } | null {
  const signerInfo = firstSignerInfo(readSealCms(pdf).cms);
  const unsigned = signerInfo.find((v) => isContext(v, 1));
  const attribute = kids(unsigned).find((a) => oidOf(kids(a)[0]) === SIGNATURE_TIMESTAMP_TOKEN);
  if (!attribute) return null;
  const signedAttrsAt = signerInfo.findIndex((v) => isContext(v, 0));
  const signature = signerInfo.find((v, i) => i > signedAttrsAt + 1 && v.tagClass === Class.UNIVERSAL && v.type === Type.OCTETSTRING);
  return { token: new Uint8Array(toBytes(kids(kids(attribute)[1])[0])), signatureValue: new Uint8Array(contentOf(signature)) };
}
