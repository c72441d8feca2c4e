import "server-only";
import { generateKeyPair, type KeyObject, randomBytes, X509Certificate } from "node:crypto";
import { promisify } from "node:util";
import forge from "node-forge";

const generateRsa = promisify(generateKeyPair);

const DAY = 86_400_000;
const CA_YEARS = 10;
const SIGNING_YEARS = 3;
// RFC 9336 id-kp-documentSigning, beside emailProtection, which NSS (pdfsig) checks for signers.
const DOCUMENT_SIGNING = "1.3.6.1.5.5.7.3.36";

export type KeyPair = { privateKey: KeyObject; publicKey: KeyObject };

/** A CA and a certificate it issued, PEM; the keys stay KeyObjects. */
export type CreatedCredentials = {
  ca: { certificate: string; privateKey: KeyObject };
  signing: { certificate: string; privateKey: KeyObject };
};

const NAME = (commonName: string) => [
  { name: "commonName", value: commonName },
  { name: "organizationName", value: "Coffre" },
];

/**
 * The platform's own PKI, made at first use: "Coffre signing CA" (10 years) and a signing
 * certificate it issued (3 years, digitalSignature + nonRepudiation). RSA 3072: node-forge
 * builds certificates for RSA keys only, and pdfsig, Acrobat and @libpdf/core all take it.
 */
export async function createSigningCredentials(now = new Date()): Promise<CreatedCredentials> {
  const [caKeys, signingKeys] = await Promise.all([rsaKeyPair(), rsaKeyPair()]);
  const caPrivate = toForgePrivate(caKeys.privateKey);
  const ca = newCertificate(caKeys.publicKey, now, CA_YEARS);
  ca.setSubject(NAME("Coffre signing CA"));
  ca.setIssuer(NAME("Coffre signing CA"));
  ca.setExtensions([
    { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  ca.sign(caPrivate, forge.md.sha256.create());
  const caPem = toPem(ca);
  return {
    ca: { certificate: caPem, privateKey: caKeys.privateKey },
    signing: { certificate: issueSigningCertificate(caPem, caKeys.privateKey, signingKeys.publicKey, now), privateKey: signingKeys.privateKey },
  };
}

/** A signing certificate for `publicKey`, issued by the CA (also used to renew one near its end). */
export function issueSigningCertificate(caPem: string, caKey: KeyObject, publicKey: KeyObject, now = new Date()): string {
  const ca = forge.pki.certificateFromPem(caPem);
  const cert = newCertificate(publicKey, now, SIGNING_YEARS);
  // Never outlive the CA that vouches for it.
  if (cert.validity.notAfter > ca.validity.notAfter) cert.validity.notAfter = ca.validity.notAfter;
  cert.setSubject(NAME("Coffre document seal"));
  cert.setIssuer(ca.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true, critical: true },
    { name: "extKeyUsage", emailProtection: true, [DOCUMENT_SIGNING]: true },
    { name: "subjectKeyIdentifier" },
    { name: "authorityKeyIdentifier", keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(toForgePrivate(caKey), forge.md.sha256.create());
  return toPem(cert);
}

export function rsaKeyPair(): Promise<KeyPair> {
  return generateRsa("rsa", { modulusLength: 3072 });
}

function newCertificate(publicKey: KeyObject, now: Date, years: number) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  // A positive 127-bit serial (RFC 5280: at most 20 octets, unpredictable).
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x7f) | 0x01;
  cert.serialNumber = serial.toString("hex");
  cert.validity.notBefore = new Date(now.getTime() - 5 * 60_000); // tolerate clocks slightly behind
  cert.validity.notAfter = new Date(now.getTime() + years * 365 * DAY);
  return cert;
}

function toForgePrivate(key: KeyObject) {
  return forge.pki.privateKeyFromPem(key.export({ type: "pkcs8", format: "pem" }).toString());
}

/** PEM with LF line ends, as node's X509Certificate writes it (forge writes CRLF). */
const toPem = (cert: forge.pki.Certificate) => new X509Certificate(forge.pki.certificateToPem(cert)).toString();
