import "server-only";
/**
 * PAdES B-LT: a Document Security Store (ISO 32000-2, 12.8.4.3; ETSI EN 319 142-1, 5.4) in an
 * incremental update after the seal: the certificates (seal chain, TSA, OCSP responders), the
 * OCSP answers and the CRLs, and a VRI entry for the seal (key: SHA-1 of its /Contents, upper
 * hex) naming those it needs. A DSS the document already had is kept and added to.
 */
import { createHash } from "node:crypto";
import { PDF, PdfArray, PdfDict, PdfName, PdfRef, PdfStream, PdfString } from "@libpdf/core";
import { sealContentsBytes } from "./cms-in-pdf";

export type ValidationData = { certificates: Uint8Array[]; ocsps: Uint8Array[]; crls: Uint8Array[] };

const sha1 = (bytes: Uint8Array) => createHash("sha1").update(bytes).digest("hex");

export async function addDss(pdf: Uint8Array, data: ValidationData): Promise<Uint8Array> {
  const vriKey = sha1(sealContentsBytes(pdf)).toUpperCase();
  const doc = await PDF.load(pdf);
  const registry = doc.context.registry;
  const resolve = registry.resolve.bind(registry);
  const catalog = doc.getCatalog();
  const existing = catalog.getDict("DSS", resolve);
  const dss = new PdfDict([["Type", PdfName.of("DSS")]]);

  /** The DSS array `key` (what was there, then what is new) and the refs of `items` in it, for the VRI. */
  const streams = (key: string, items: Uint8Array[]): PdfRef[] => {
    const kept = [...(existing?.getArray(key, resolve) ?? [])].filter((v): v is PdfRef => v instanceof PdfRef);
    const byHash = new Map<string, PdfRef>();
    for (const ref of kept) {
      const stream = resolve(ref);
      if (stream instanceof PdfStream) byHash.set(sha1(stream.getDecodedData()), ref);
    }
    const all = [...kept];
    const refs = new Set<PdfRef>();
    for (const bytes of items) {
      const hash = sha1(bytes);
      let ref = byHash.get(hash);
      if (!ref) {
        ref = registry.register(new PdfStream(new PdfDict(), bytes));
        byHash.set(hash, ref);
        all.push(ref);
      }
      refs.add(ref);
    }
    if (all.length) dss.set(key, new PdfArray(all));
    return [...refs];
  };
  const certs = streams("Certs", data.certificates);
  const ocsps = streams("OCSPs", data.ocsps);
  const crls = streams("CRLs", data.crls);

  const vri = existing?.getDict("VRI", resolve) ?? new PdfDict();
  const entry = new PdfDict([["TU", PdfString.fromString(pdfDate(new Date()))]]);
  if (certs.length) entry.set("Cert", new PdfArray(certs));
  if (ocsps.length) entry.set("OCSP", new PdfArray(ocsps));
  if (crls.length) entry.set("CRL", new PdfArray(crls));
  vri.set(vriKey, entry);
  dss.set("VRI", vri);
  catalog.set("DSS", registry.register(dss));
  return doc.save({ incremental: true });
}

/** D:YYYYMMDDHHmmSSZ */
const pdfDate = (d: Date) => `D:${d.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`;
