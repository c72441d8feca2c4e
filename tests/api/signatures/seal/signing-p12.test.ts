import { generateKeyPairSync, type KeyObject, X509Certificate } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import forge from "node-forge";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as certificateRoute from "@/app/api/signatures/certificate/route";
import * as sealRoute from "@/app/api/signatures/seal/route";
import { getDb } from "@/db";
import { sealPdf } from "@/lib/server/signatures/seal/seal-pdf";
import { forgetSigningCredentials, getSigningCredentials, signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";
import { createAdmin, createTestUser } from "../../../helpers/factories";
import { call, expectError } from "../../../helpers/http";
import { onePagePdf } from "../../../helpers/pdf-fixtures";
import { verifyPdf } from "../../../helpers/pdfsig";

type Issued = { cert: forge.pki.Certificate; key: KeyObject };

const forgeKey = (key: KeyObject) => forge.pki.privateKeyFromPem(key.export({ type: "pkcs8", format: "pem" }).toString());

/** An organisation's own PKI: root CA → intermediate CA → signing certificate. */
function issue(commonName: string, issuer: Issued | null, isCa: boolean, days = 365): Issued {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  cert.serialNumber = `0${Math.floor(Math.random() * 1e12).toString(16)}`;
  cert.validity.notBefore = new Date(Date.now() - 3_600_000);
  cert.validity.notAfter = new Date(Date.now() + days * 86_400_000);
  const subject = [{ name: "commonName", value: commonName }, { name: "organizationName", value: "Example Org" }];
  cert.setSubject(subject);
  cert.setIssuer(issuer ? issuer.cert.subject.attributes : subject);
  cert.setExtensions(
    isCa
      ? [{ name: "basicConstraints", cA: true, critical: true }, { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true }, { name: "subjectKeyIdentifier" }]
      : [
          { name: "basicConstraints", cA: false },
          { name: "keyUsage", digitalSignature: true, nonRepudiation: true, critical: true },
          { name: "extKeyUsage", emailProtection: true },
          { name: "subjectKeyIdentifier" },
        ],
  );
  cert.sign(forgeKey(issuer?.key ?? privateKey), forge.md.sha256.create());
  return { cert, key: privateKey };
}

const pemOf = (issued: Issued) => new X509Certificate(forge.pki.certificateToPem(issued.cert)).toString();

describe("SIGNING_P12", () => {
  let dir: string;
  let root: Issued;
  let intermediate: Issued;
  let leaf: Issued;
  const saved = { p12: process.env.SIGNING_P12, password: process.env.SIGNING_P12_PASSWORD };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "coffre-p12-"));
    root = issue("Example Root CA", null, true);
    intermediate = issue("Example Signing CA", root, true);
    leaf = issue("Example Org document seal", intermediate, false);
    // The CA certificates come first in the file: the signer's certificate is found by its key.
    const asn1 = forge.pkcs12.toPkcs12Asn1(forgeKey(leaf.key), [root.cert, leaf.cert, intermediate.cert], "p12 secret", { algorithm: "aes256" });
    await writeFile(path.join(dir, "seal.p12"), Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary"));
    const soon = issue("Example Org seal ending soon", intermediate, false, 20);
    const ending = forge.pkcs12.toPkcs12Asn1(forgeKey(soon.key), [soon.cert, intermediate.cert, root.cert], "p12 secret", { algorithm: "aes256" });
    await writeFile(path.join(dir, "ending.p12"), Buffer.from(forge.asn1.toDer(ending).getBytes(), "binary"));
  });

  afterEach(() => {
    for (const [key, value] of [["SIGNING_P12", saved.p12], ["SIGNING_P12_PASSWORD", saved.password]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    forgetSigningCredentials();
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  const useP12 = (password = "p12 secret", file = path.join(dir, "seal.p12")) => {
    process.env.SIGNING_P12 = file;
    process.env.SIGNING_P12_PASSWORD = password;
    forgetSigningCredentials();
  };

  it("seals with the key from the file, embeds its chain and publishes the top of it as the CA", async () => {
    useP12();
    const db = await getDb();
    const credentials = await getSigningCredentials(db);
    expect(credentials.chain.map((c) => c.subject.split("\n")[0])).toEqual(["CN=Example Org document seal", "CN=Example Signing CA", "CN=Example Root CA"]);
    expect(await signingCaPem(db)).toBe(pemOf(root));

    const res = await call(certificateRoute.GET, { path: "/api/signatures/certificate" });
    expect(res.status).toBe(200);
    expect(res.text).toBe(pemOf(root));

    const sealed = await sealPdf(db, await onePagePdf(), { reason: "Sealed by Example Org" });
    const report = await verifyPdf(sealed, { trustCaPem: res.text });
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Total document signed");
    expect(report).toContain("Certificate is Trusted.");
    expect(report).toContain("Signer Certificate Common Name: Example Org document seal");
    // Trusting the platform's own CA instead does not vouch for the organisation's seal.
    forgetSigningCredentials();
    delete process.env.SIGNING_P12;
    const platformCa = await signingCaPem(db);
    expect(platformCa).not.toBe(pemOf(root));
    expect(await verifyPdf(sealed, { trustCaPem: platformCa })).not.toContain("Certificate is Trusted.");
  }, 120_000);

  it("says what is wrong with a wrong password or a missing file", async () => {
    const db = await getDb();
    useP12("not the password");
    await expect(getSigningCredentials(db)).rejects.toThrow(/SIGNING_P12: cannot open .*wrong SIGNING_P12_PASSWORD/);
    useP12("p12 secret", path.join(dir, "missing.p12"));
    await expect(signingCaPem(db)).rejects.toThrow(/SIGNING_P12: cannot read/);
    // The route answers 500 with a request id, never the path or the reason.
    const res = await call(certificateRoute.GET, { path: "/api/signatures/certificate" });
    expect(res.status).toBe(500);
    expect(res.text).not.toContain("missing.p12");
  });

  it("GET /api/signatures/seal tells administrators which certificate seals, at which level, and warns 30 days before its end", async () => {
    const admin = await createAdmin();
    const seal = () => call(sealRoute.GET, { token: admin.token, path: "/api/signatures/seal" });

    const platform = await seal();
    expect(platform.status).toBe(200);
    expect(platform.body).toMatchObject({ source: "platform", level: "B-B", timestamp_authority: null, warning: null, certificate: { platform_ca: true } });

    useP12();
    const savedTsa = process.env.SIGNING_TSA_URL;
    process.env.SIGNING_TSA_URL = "http://127.0.0.1:9/tsa";
    try {
      const own = await seal();
      expect(own.body).toMatchObject({
        source: "p12",
        level: "B-T",
        timestamp_authority: "http://127.0.0.1:9/tsa",
        warning: null,
        certificate: { subject: "CN=Example Org document seal, O=Example Org", issuer: "CN=Example Signing CA, O=Example Org", platform_ca: false },
        chain: [{ subject: "CN=Example Signing CA, O=Example Org" }, { subject: "CN=Example Root CA, O=Example Org" }],
      });
      expect(own.body.certificate.days_left).toBeGreaterThanOrEqual(364);
    } finally {
      if (savedTsa === undefined) delete process.env.SIGNING_TSA_URL;
      else process.env.SIGNING_TSA_URL = savedTsa;
    }

    useP12("p12 secret", path.join(dir, "ending.p12"));
    const ending = await seal();
    expect(ending.body).toMatchObject({ warning: "expiring", certificate: { subject: "CN=Example Org seal ending soon, O=Example Org" } });
    expect(ending.body.certificate.days_left).toBeLessThan(30);
  }, 60_000);

  it("GET /api/signatures/seal is refused to anyone but an administrator", async () => {
    const user = await createTestUser();
    const manager = await createTestUser({ role: 2 });
    expectError(await call(sealRoute.GET, { token: user.token, path: "/api/signatures/seal" }), 403, "forbidden");
    expectError(await call(sealRoute.GET, { token: manager.token, path: "/api/signatures/seal" }), 403, "forbidden");
    expectError(await call(sealRoute.GET, { path: "/api/signatures/seal" }), 401);
  });
});
