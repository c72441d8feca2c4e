import { X509Certificate } from "node:crypto";
import { PDF } from "@libpdf/core";
import forge from "node-forge";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { sealPdf } from "@/lib/server/signatures/seal/seal-pdf";
import { signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";
import { stampFields } from "@/lib/server/signatures/seal/stamp-fields";
import { onePagePdf, signaturePng, threePagePdf } from "../../../helpers/pdf-fixtures";
import { verifyPdf } from "../../../helpers/pdfsig";

/** The entries of the (last) signature dictionary, read back by @libpdf/core. */
async function signatureEntries(bytes: Uint8Array) {
  const pdf = await PDF.load(bytes);
  const fields = pdf.getForm()!.getFields().filter((f) => f.type === "signature");
  const dict = (fields.at(-1) as unknown as { getSignatureDict(): import("@libpdf/core").PdfDict }).getSignatureDict();
  const text = (key: string) => dict.getString(key)?.asString() ?? null;
  return {
    fields: fields.map((f) => f.name),
    subFilter: dict.getName("SubFilter")?.value,
    reason: text("Reason"),
    name: text("Name"),
    location: text("Location"),
    contactInfo: text("ContactInfo"),
    signingTime: text("M"),
  };
}

/** The OIDs of the CMS signed attributes and the certificates the CMS carries. */
function cmsOf(bytes: Uint8Array) {
  const latin = Buffer.from(bytes).toString("latin1");
  const range = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(latin.slice(latin.lastIndexOf("/ByteRange")))!;
  const hex = latin.slice(Number(range[2]) + 1, Number(range[3]) - 1);
  const fromDer = forge.asn1.fromDer as unknown as (der: string, o: object) => forge.asn1.Asn1;
  const cms = fromDer(Buffer.from(hex, "hex").toString("binary"), { parseAllBytes: false, decodeBitStrings: false });
  const signedData = ((cms.value as forge.asn1.Asn1[])[1].value as forge.asn1.Asn1[])[0].value as forge.asn1.Asn1[];
  const certificates = (signedData.find((v) => v.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && v.type === 0)!.value as forge.asn1.Asn1[]).map(
    (c) => new X509Certificate(Buffer.from(forge.asn1.toDer(c).getBytes(), "binary")),
  );
  const signerInfo = (signedData.at(-1)!.value as forge.asn1.Asn1[])[0].value as forge.asn1.Asn1[];
  const attributes = signerInfo.find((v) => v.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && v.type === 0)!.value as forge.asn1.Asn1[];
  const oids = attributes.map((a) => forge.asn1.derToOid((a.value as forge.asn1.Asn1[])[0].value as string));
  return { oids, certificates, range: range.slice(1).map(Number) };
}

const SIGNING_TIME = "1.2.840.113549.1.9.5";
const SIGNING_CERTIFICATE_V2 = "1.2.840.113549.1.9.16.2.47";
const MESSAGE_DIGEST = "1.2.840.113549.1.9.4";

describe("sealPdf", () => {
  let caPem: string;
  let sealed: Uint8Array;

  beforeAll(async () => {
    const db = await getDb();
    caPem = await signingCaPem(db);
    const stamped = await stampFields(await threePagePdf(), [
      { page: 1, x: 80, y: 120, width: 200, height: 50, kind: "image", png: await signaturePng() },
      { page: 2, x: 80, y: 120, width: 200, height: 40, kind: "text", text: "Jane Doe", font: "script" },
      { page: 3, x: 80, y: 120, width: 16, height: 16, kind: "checkbox", checked: true },
    ]);
    sealed = await sealPdf(db, stamped, { reason: "Signed (all parties) via Coffre", name: "Coffre", location: "Lyon, France", contactInfo: "https://coffre.example" });
  }, 120_000); // the first seal makes the platform's keys

  it("gives a PAdES seal over the whole file that pdfsig validates and trusts with the platform CA", async () => {
    const report = await verifyPdf(sealed, { trustCaPem: caPem });
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Total document signed");
    expect(report).toContain("Certificate is Trusted.");
    expect(report).toContain("Signature Type: ETSI.CAdES.detached");
    expect(report).toContain("Signer Certificate Common Name: Coffre document seal");
    expect(report.match(/Signature #/g)).toHaveLength(1);
  });

  it("is not trusted by a reader that does not know the CA", async () => {
    const report = await verifyPdf(sealed);
    expect(report).toContain("Signature is Valid.");
    expect(report).not.toContain("Certificate is Trusted.");
  });

  it("is broken by one changed byte inside the signed range", async () => {
    const { range } = cmsOf(sealed);
    const tampered = new Uint8Array(sealed);
    // A byte of page content well inside the first signed range.
    const at = Math.floor(range[1] / 2);
    tampered[at] = tampered[at] === 0x20 ? 0x21 : 0x20;
    const report = await verifyPdf(tampered, { trustCaPem: caPem });
    expect(report).not.toContain("Signature is Valid.");
    expect(report).toMatch(/Digest Mismatch|Signature is Invalid|not valid/i);
  });

  it("carries signing-certificate-v2, no CMS signing-time (PAdES baseline), and the chain", async () => {
    const { oids, certificates } = cmsOf(sealed);
    expect(oids).toContain(SIGNING_CERTIFICATE_V2);
    expect(oids).toContain(MESSAGE_DIGEST);
    expect(oids).not.toContain(SIGNING_TIME);
    const ca = new X509Certificate(caPem);
    expect(certificates.map((c) => c.subject)).toEqual(["CN=Coffre document seal\nO=Coffre", ca.subject]);
    expect(certificates[0].checkIssued(ca)).toBe(true);
    expect(certificates[0].verify(ca.publicKey)).toBe(true);
  });

  it("writes reason, name, location, contact and the signing time in the signature dictionary", async () => {
    const entries = await signatureEntries(sealed);
    expect(entries).toMatchObject({
      subFilter: "ETSI.CAdES.detached",
      reason: "Signed (all parties) via Coffre",
      name: "Coffre",
      location: "Lyon, France",
      contactInfo: "https://coffre.example",
    });
    expect(entries.fields).toHaveLength(1);
    const m = /^D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(entries.signingTime ?? "");
    expect(m).not.toBeNull();
    const claimed = Date.UTC(Number(m![1]), Number(m![2]) - 1, Number(m![3]), Number(m![4]), Number(m![5]), Number(m![6]));
    // /M is written in the server's zone or UTC: within a day of now whichever it is, and parseable.
    expect(Math.abs(claimed - Date.now())).toBeLessThan(86_400_000);
  });

  it("seals non-Latin reasons and an unstamped original just as well", async () => {
    const db = await getDb();
    const other = await sealPdf(db, await onePagePdf(), { reason: "Подписано — signé à Zürich" });
    const report = await verifyPdf(other, { trustCaPem: caPem });
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Total document signed");
    expect((await signatureEntries(other)).reason).toBe("Подписано — signé à Zürich");
  });
});
