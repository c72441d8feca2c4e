import { X509Certificate } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { PDF, PdfRef, PdfStream } from "@libpdf/core";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { AppError } from "@/lib/server/errors";
import type { AuditTrailInput } from "@/lib/server/signatures/seal/audit-trail-pdf";
import { renderSealedAuditTrail, sealPdf } from "@/lib/server/signatures/seal/seal-pdf";
import { sealTimestampToken } from "@/lib/server/signatures/seal/signature-timestamp";
import { forgetSigningCredentials, signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";
import { createTestPki, openssl, type TestPki } from "../../../helpers/openssl-pki";
import { onePagePdf } from "../../../helpers/pdf-fixtures";
import { verifyPdf } from "../../../helpers/pdfsig";

const ENV = ["SIGNING_TSA_URL", "SIGNING_TSA_POLICY", "SIGNING_TSA_USER", "SIGNING_TSA_PASSWORD", "SIGNING_P12", "SIGNING_P12_PASSWORD", "SIGNING_NETWORK_TIMEOUT_MS"] as const;

/** The DSS of a PDF: each array's streams, decoded, and the VRI keys. */
async function dssOf(bytes: Uint8Array) {
  const doc = await PDF.load(bytes);
  const resolve = doc.context.registry.resolve.bind(doc.context.registry);
  const dss = doc.getCatalog().getDict("DSS", resolve);
  if (!dss) return null;
  const streams = (key: string) =>
    [...(dss.getArray(key, resolve) ?? [])].map((ref) => {
      const stream = resolve(ref as PdfRef);
      return stream instanceof PdfStream ? stream.getDecodedData() : new Uint8Array();
    });
  return { certs: streams("Certs"), ocsps: streams("OCSPs"), crls: streams("CRLs"), vri: [...(dss.getDict("VRI", resolve)?.keys() ?? [])].map((k) => k.value) };
}

/** `openssl ts -verify` of the seal's token over its signature value, trusting the test root. */
async function verifyToken(pki: TestPki, sealed: Uint8Array, name: string) {
  const found = sealTimestampToken(sealed);
  expect(found).not.toBeNull();
  await writeFile(path.join(pki.dir, `${name}.tst`), found!.token);
  await writeFile(path.join(pki.dir, `${name}.sig`), found!.signatureValue);
  const { stdout } = await openssl(["ts", "-verify", "-data", `${name}.sig`, "-in", `${name}.tst`, "-token_in", "-CAfile", "root.pem", "-untrusted", "tsa.pem"], pki.dir);
  return stdout;
}

/** `openssl ts -reply -text` of a token. */
async function tokenText(pki: TestPki, sealed: Uint8Array, name: string) {
  await writeFile(path.join(pki.dir, `${name}.tst`), sealTimestampToken(sealed)!.token);
  return (await openssl(["ts", "-reply", "-in", `${name}.tst`, "-token_in", "-token_out", "-text"], pki.dir)).stdout;
}

const pkijsOf = <T>(Type: new (o: { schema: unknown }) => T, der: Uint8Array): T => new Type({ schema: asn1js.fromBER(new Uint8Array(der).buffer).result });

/**
 * pkijs's own reading of the seal: the CMS signature over the PDF's byte ranges verifies with a
 * chain to `root`, its SignerInfo carries the signature timestamp token; each DSS OCSP answer
 * verifies with the root.
 */
async function pkijsChecks(sealed: Uint8Array, rootPem: string, ocsps: Uint8Array[]) {
  // pkijs's own engine over WebCrypto (@libpdf/core installs one of its own for P12 files).
  pkijs.setEngine("webcrypto", new pkijs.CryptoEngine({ name: "webcrypto", crypto: globalThis.crypto }));
  const latin = Buffer.from(sealed).toString("latin1");
  const at = latin.indexOf("/ByteRange"); // the seal's: the DSS update adds no signature
  const [a, b, c, d] = /\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(latin.slice(at))!.slice(1).map(Number);
  const cmsDer = Buffer.from(latin.slice(a + b + 1, c - 1), "hex");
  const signedData = new pkijs.SignedData({ schema: pkijsOf(pkijs.ContentInfo, cmsDer).content });
  const root = pkijsOf(pkijs.Certificate, new Uint8Array(new X509Certificate(rootPem).raw));
  const data = Buffer.concat([Buffer.from(sealed.subarray(a, a + b)), Buffer.from(sealed.subarray(c, c + d))]);
  const verified = await signedData.verify({ signer: 0, data: new Uint8Array(data).buffer, checkChain: true, trustedCerts: [root], extendedMode: true });
  expect(verified.signatureVerified).toBe(true);
  expect(verified.code).toBe(14);
  expect(verified.signerCertificateVerified).toBe(true);
  expect(signedData.signerInfos[0].unsignedAttrs?.attributes.map((x) => x.type)).toEqual(["1.2.840.113549.1.9.16.2.14"]);
  for (const der of ocsps) {
    const response = pkijsOf(pkijs.OCSPResponse, der);
    expect(response.responseStatus.valueBlock.valueDec).toBe(0);
    const basic = pkijsOf(pkijs.BasicOCSPResponse, new Uint8Array(response.responseBytes!.response.valueBlock.valueHexView));
    expect(await basic.verify({ trustedCerts: [root] })).toBe(true);
  }
}

const subjects = (certs: Uint8Array[]) => certs.map((c) => new X509Certificate(c).subject.split("\n")[0]).sort();

describe("long-term seals (PAdES B-T, B-LT)", () => {
  let pki: TestPki;
  const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

  beforeAll(async () => {
    pki = await createTestPki();
  }, 60_000);

  afterEach(() => {
    for (const key of ENV) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    pki.tsa.mode = "ok";
    pki.ocsp.mode = "ok";
    forgetSigningCredentials();
  });

  afterAll(() => pki?.close());

  const useTsa = () => {
    process.env.SIGNING_TSA_URL = pki.tsaUrl;
    process.env.SIGNING_TSA_POLICY = "1.2.3.4.5";
  };
  const useOwnP12 = () => {
    process.env.SIGNING_P12 = pki.p12;
    process.env.SIGNING_P12_PASSWORD = "p12 secret";
    forgetSigningCredentials();
  };

  it("B-T with the platform's CA: the signature value is timestamped, openssl ts -verify accepts it, pdfsig still says valid", async () => {
    useTsa();
    const db = await getDb();
    const before = pki.tsa.requests;
    const sealed = await sealPdf(db, await onePagePdf(), { reason: "Sealed with a timestamp" });
    expect(pki.tsa.requests).toBe(before + 1);
    expect(await verifyToken(pki, sealed, "bt")).toContain("Verification: OK");
    const text = await tokenText(pki, sealed, "bt");
    expect(text).toContain("Policy OID: 1.2.3.4.5");
    expect(text).toContain("Hash Algorithm: sha256");
    const report = await verifyPdf(sealed, { trustCaPem: await signingCaPem(db) });
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Certificate is Trusted.");
    // The platform's CA publishes neither OCSP nor CRLs; the TSA's certificate names a responder:
    // the DSS holds that one answer, with both chains.
    const dss = (await dssOf(sealed))!;
    expect(dss.ocsps).toHaveLength(1);
    expect(subjects(dss.certs)).toEqual(["CN=Coffre document seal", "CN=Coffre signing CA", "CN=Test Root CA", "CN=Test TSA"]);
  }, 120_000);

  it("without SIGNING_TSA_URL the seal stays B-B: no token, no TSA asked", async () => {
    delete process.env.SIGNING_TSA_URL;
    const before = pki.tsa.requests;
    const sealed = await sealPdf(await getDb(), await onePagePdf(), { reason: "Plain seal" });
    expect(sealTimestampToken(sealed)).toBeNull();
    expect(pki.tsa.requests).toBe(before);
    expect(await dssOf(sealed)).toBeNull();
  }, 60_000);

  it("B-LT with a certificate whose CA publishes OCSP: the DSS holds the chain, the TSA's certificate and the OCSP answers", async () => {
    useTsa();
    useOwnP12();
    const db = await getDb();
    const before = pki.ocsp.requests;
    const sealed = await sealPdf(db, await onePagePdf(), { reason: "Sealed for the long term" });
    expect(pki.ocsp.requests).toBe(before + 2); // the seal's certificate and the TSA's
    expect(await verifyToken(pki, sealed, "blt")).toContain("Verification: OK");

    const dss = (await dssOf(sealed))!;
    expect(dss).not.toBeNull();
    expect(subjects(dss.certs)).toEqual(["CN=Test Root CA", "CN=Test TSA", "CN=Test long-term seal"]);
    expect(dss.ocsps).toHaveLength(2);
    expect(dss.crls).toHaveLength(0);
    expect(dss.vri).toHaveLength(1);
    expect(dss.vri[0]).toMatch(/^[0-9A-F]{40}$/);
    const statuses: string[] = [];
    for (const [i, ocsp] of dss.ocsps.entries()) {
      await writeFile(path.join(pki.dir, `dss-${i}.ocsp`), ocsp);
      const { stdout, stderr } = await openssl(["ocsp", "-respin", `dss-${i}.ocsp`, "-CAfile", "root.pem", "-resp_text"], pki.dir);
      expect(`${stdout}${stderr}`).toContain("Response verify OK");
      statuses.push(...[...stdout.matchAll(/Serial Number: (\w+)\s+Cert Status: (\w+)/g)].map((m) => `${m[1]} ${m[2]}`));
    }
    expect(statuses.sort()).toEqual(["1001 good", "2001 good"]);
    await pkijsChecks(sealed, pki.rootPem, dss.ocsps);

    // The DSS is an incremental update after the seal: the signature still covers its revision.
    const report = await verifyPdf(sealed, { trustCaPem: pki.rootPem });
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Certificate is Trusted.");
    expect(report).toContain("Signer Certificate Common Name: Test long-term seal");
    expect(report).not.toContain("Total document signed");

    // Sealed again (a signed PDF signed anew): the DSS already there is kept and added to.
    const twice = await sealPdf(db, sealed, { reason: "Sealed again" });
    const both = (await dssOf(twice))!;
    expect(both.vri).toHaveLength(2);
    expect(both.vri).toContain(dss.vri[0]);
    expect(both.ocsps.length).toBeGreaterThanOrEqual(3);
    expect(subjects(both.certs)).toEqual(["CN=Test Root CA", "CN=Test TSA", "CN=Test long-term seal"]);
    const again = await verifyPdf(twice, { trustCaPem: pki.rootPem });
    expect(again.match(/Signature is Valid\./g)).toHaveLength(2);
  }, 120_000);

  it("B-LT with a certificate whose CA publishes a CRL: the DSS holds the CRL, signed by the CA and not listing the seal", async () => {
    useTsa();
    process.env.SIGNING_P12 = pki.crlP12;
    process.env.SIGNING_P12_PASSWORD = "p12 secret";
    forgetSigningCredentials();
    const sealed = await sealPdf(await getDb(), await onePagePdf(), { reason: "Sealed with a CRL" });
    const dss = (await dssOf(sealed))!;
    expect(subjects(dss.certs)).toEqual(["CN=Test CRL seal", "CN=Test Root CA", "CN=Test TSA"]);
    expect(dss.crls).toHaveLength(1);
    expect(dss.ocsps).toHaveLength(1); // the TSA's certificate names an OCSP responder
    await writeFile(path.join(pki.dir, "dss.crl"), dss.crls[0]);
    const { stdout, stderr } = await openssl(["crl", "-inform", "DER", "-in", "dss.crl", "-CAfile", "root.pem", "-noout", "-text"], pki.dir);
    expect(`${stdout}${stderr}`).toContain("verify OK");
    expect(stdout).toContain("Issuer: CN = Test Root CA");
    expect(stdout).not.toContain("3001");
    expect(await verifyPdf(sealed, { trustCaPem: pki.rootPem })).toContain("Signature is Valid.");
  }, 120_000);

  it("the audit trail is timestamped by the same TSA", async () => {
    useTsa();
    const input: AuditTrailInput = {
      request: { id: 77, name: "Timestamped trail", status: "done", initiator: { name: "Alice", email: "alice@example.com" }, created_at: new Date(), completed_at: new Date() },
      documents: [{ name: "a.pdf", sha256_before: "a".repeat(64), sha256_after: "b".repeat(64) }],
      actors: [{ type: "signer", name: "Bob", email: "bob@example.com", status: "done", signed_at: new Date() }],
      activities: [],
      locale: "en",
    };
    const sealed = await renderSealedAuditTrail(await getDb(), input, { reason: "Audit trail of signature request #77" });
    expect(await verifyToken(pki, sealed, "trail")).toContain("Verification: OK");
    expect(await verifyPdf(sealed)).toContain("Signature is Valid.");
  }, 120_000);

  const refused = async (promise: Promise<unknown>, message: RegExp) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("service_unavailable");
    expect((error as AppError).message).toMatch(message);
  };

  it("a TSA that answers garbage, an error, a replayed token or nothing fails the seal (503), never a weaker seal", async () => {
    useTsa();
    const db = await getDb();
    pki.tsa.mode = "garbage";
    await refused(sealPdf(db, await onePagePdf(), { reason: "x" }), /timestamp authority.*not a DER TimeStampResp/);
    pki.tsa.mode = "error";
    await refused(sealPdf(db, await onePagePdf(), { reason: "x" }), /timestamp authority.*HTTP 500/);
    // A well-formed, validly signed reply to an earlier request: its nonce and imprint are another's.
    pki.tsa.mode = "ok";
    await sealPdf(db, await onePagePdf(), { reason: "primes the replay" });
    pki.tsa.mode = "replay";
    await refused(sealPdf(db, await onePagePdf(), { reason: "x" }), /timestamp authority.*(message imprint|nonce)/);
    // Silent: the seal gives up after SIGNING_NETWORK_TIMEOUT_MS.
    pki.tsa.mode = "silent";
    process.env.SIGNING_NETWORK_TIMEOUT_MS = "1500";
    const started = Date.now();
    await refused(sealPdf(db, await onePagePdf(), { reason: "x" }), /timestamp authority.*no answer within 1500 ms/);
    expect(Date.now() - started).toBeLessThan(15_000);
    // Down: nothing listens there (a port just closed).
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    process.env.SIGNING_TSA_URL = `http://127.0.0.1:${port}/`;
    await refused(sealPdf(db, await onePagePdf(), { reason: "x" }), /timestamp authority.*fetch failed \(connect ECONNREFUSED/);
    // Asked for a policy the TSA does not serve.
    pki.tsa.mode = "ok";
    process.env.SIGNING_TSA_URL = pki.tsaUrl;
    process.env.SIGNING_TSA_POLICY = "1.2.3.4.9";
    await refused(sealPdf(db, await onePagePdf(), { reason: "x" }), /timestamp authority refused|PKIStatus 2/);
  }, 120_000);

  it("an OCSP responder that is down or says revoked, or a CRL that lists the seal, fails the seal", async () => {
    useTsa();
    useOwnP12();
    const db = await getDb();
    pki.ocsp.mode = "error";
    await refused(sealPdf(db, await onePagePdf(), { reason: "x" }), /revocation data for the certificate .*Test .*HTTP 500/);
    pki.ocsp.mode = "garbage";
    await refused(sealPdf(db, await onePagePdf(), { reason: "x" }), /revocation data/);
    pki.ocsp.mode = "ok";
    await pki.revoke("seal");
    await refused(sealPdf(db, await onePagePdf(), { reason: "x" }), /Test long-term seal.*revoked \(OCSP/);
    process.env.SIGNING_P12 = pki.crlP12;
    forgetSigningCredentials();
    await pki.revoke("crlseal");
    await refused(sealPdf(db, await onePagePdf(), { reason: "x" }), /Test CRL seal.*revoked \(CRL/);
  }, 120_000);
});
