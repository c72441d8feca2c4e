import { generateKeyPairSync, type KeyObject, X509Certificate } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import forge from "node-forge";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as certificateRoute from "@/app/api/signatures/certificate/route";
import { getDb } from "@/db";
import { sealPdf } from "@/lib/server/signatures/seal/seal-pdf";
import { forgetSigningCredentials, getSigningCredentials, signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";
import { call } from "../../../helpers/http";
import { onePagePdf } from "../../../helpers/pdf-fixtures";
import { verifyPdf } from "../../../helpers/pdfsig";

type Issued = { cert: forge.pki.Certificate; key: KeyObject };

const forgeKey = (key: KeyObject) => forge.pki.privateKeyFromPem(key.export({ type: "pkcs8", format: "pem" }).toString());

/** An organisation's own PKI: root CA → intermediate CA → signing certificate. */
function issue(commonName: string, issuer: Issued | null, isCa: boolean): Issued {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  cert.serialNumber = `0${Math.floor(Math.random() * 1e12).toString(16)}`;
  cert.validity.notBefore = new Date(Date.now() - 3_600_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
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
});
