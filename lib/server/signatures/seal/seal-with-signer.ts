import "server-only";
import { PDF, PdfDict, PdfString, type PdfObject, type PdfRef, type Signer } from "@libpdf/core";
import { AppError } from "@/lib/server/errors";
import { removeCmsSigningTime } from "./cades-signing-time";
import { certificatesOf, parseDer } from "./cms-in-pdf";
import { addDss } from "./dss";
import { cleanText } from "./fonts";
import type { LongTermSettings } from "./long-term";
import { gatherRevocation } from "./revocation";
import { addSignatureTimestamp } from "./signature-timestamp";

export type SealInfo = { reason: string; name?: string; location?: string; contactInfo?: string };

const DIGEST = "SHA-256";
/** Room in the placeholder for the TSA's token: TSTInfo, signature and the TSA's certificates. */
const TIMESTAMP_ROOM = 16_384;

/**
 * Seals a finished PDF with `signer`: PAdES baseline B-B (ETSI.CAdES.detached, with the
 * signing-certificate-v2 attribute) over the whole file, as one incremental update, with the
 * chain embedded and reason, name, location and the signing time (/M) in the signature
 * dictionary (api.md, "the seal"). Stamp first: anything that rewrites the file afterwards
 * breaks it. Runs in the seal worker (seal-pdf.ts), the signer's key on the main thread.
 *
 * With a TSA (long-term.ts) the seal becomes B-T, its signature value timestamped; then B-LT
 * when the chain's issuers publish OCSP or CRLs: those answers, checked, go into a DSS in a
 * second incremental update. A TSA or responder that fails fails the seal (the caller's job
 * retries; nothing weaker than asked for is ever stored).
 */
export async function sealWithSigner(pdf: Uint8Array, info: SealInfo, signer: Signer, longTerm?: LongTermSettings): Promise<Uint8Array> {
  let doc: PDF;
  try {
    doc = await PDF.load(pdf);
  } catch (error) {
    throw new AppError("pdf_damaged", `The PDF cannot be sealed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (doc.isEncrypted) throw new AppError("pdf_encrypted", "The PDF is encrypted and cannot be sealed");
  const chainBytes = [signer.certificate, ...(signer.certificateChain ?? [])].reduce((sum, c) => sum + c.length, 0);
  const signed = await withSignatureEntries(doc, info, () =>
    doc.sign({
      signer,
      subFilter: "ETSI.CAdES.detached",
      level: "B-B",
      digestAlgorithm: DIGEST,
      signingTime: new Date(),
      // A field of our own (never a signature field the document already offers); no "." (AcroForm name separator).
      fieldName: `CoffreSeal_${Date.now()}`,
      // The CMS carries the whole chain; leave room for it, the signature and the attributes.
      estimatedSize: Math.max(12_288, 4_096 + 2 * chainBytes) + (longTerm?.tsa ? TIMESTAMP_ROOM : 0),
    }),
  );
  const sealed = await removeCmsSigningTime(signed.bytes, signer, DIGEST);
  return longTerm?.tsa ? withLongTermData(sealed, signer, longTerm) : sealed;
}

/** B-T, then B-LT when there is revocation data to keep. */
async function withLongTermData(sealed: Uint8Array, signer: Signer, { tsa, timeoutMs }: LongTermSettings): Promise<Uint8Array> {
  const { pdf: timestamped, timestamp } = await addSignatureTimestamp(sealed, tsa!, timeoutMs);
  const tsaCertificates = certificatesOf(parseDer(timestamp.token));
  const certificates = [signer.certificate, ...(signer.certificateChain ?? []), ...tsaCertificates];
  const revocation = await gatherRevocation(certificates, timeoutMs);
  if (!revocation.ocsps.length && !revocation.crls.length) return timestamped;
  return addDss(timestamped, { certificates: [...certificates, ...revocation.certificates], ocsps: revocation.ocsps, crls: revocation.crls });
}

/**
 * Writes /Reason, /Name, /Location and /ContactInfo into the signature dictionary as it is
 * registered. @libpdf/core 0.4 has no /Name option, and escapes reason, location and contact
 * before its own string encoding escapes them again (a "(" would read "\("), so they are set
 * here, once, as text strings.
 */
async function withSignatureEntries<T>(doc: PDF, info: SealInfo, fn: () => Promise<T>): Promise<T> {
  const registry = doc.context.registry;
  const entries = Object.entries({ Reason: info.reason, Name: info.name, Location: info.location, ContactInfo: info.contactInfo })
    .map(([key, value]) => [key, value === undefined ? "" : cleanText(value).trim().slice(0, 500)] as const)
    .filter(([, value]) => value !== "");
  const register = registry.register;
  const wasOwn = Object.prototype.hasOwnProperty.call(registry, "register");
  registry.register = function (this: typeof registry, object: PdfObject): PdfRef {
    if (object instanceof PdfDict && object.getName("Type")?.value === "Sig") {
      for (const [key, value] of entries) object.set(key, PdfString.fromString(value));
    }
    return register.call(this, object);
  };
  try {
    return await fn();
  } finally {
    if (wasOwn) registry.register = register;
    else delete (registry as { register?: unknown }).register;
  }
}
