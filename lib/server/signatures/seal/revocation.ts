import "server-only";
/**
 * PAdES B-LT's revocation data: for each certificate of the seal's chain (and the TSA's) whose
 * issuer is known, the OCSP answer of the responder its AIA names (RFC 6960), else the CRL of
 * its distribution point (RFC 5280), each checked (signed by the issuer or its delegated
 * responder, about this certificate, "good" / not listed) before it goes into the DSS.
 * A certificate that names a responder which cannot be reached fails the seal, as a TSA does.
 */
import { randomBytes, X509Certificate } from "node:crypto";
import forge from "node-forge";
import { AppError } from "@/lib/server/errors";
import { crlUrls, nameDer, ocspUrls, publicKeyBits } from "./certificate-fields";
import { Class, contentOf, isContext, kids, oidOf, parseDer, sameBytes, serialHex, sha, toBytes, Type, verifies } from "./cms-in-pdf";
import { fetchBytes, networkFailure } from "./long-term";

const SHA1 = "1.3.14.3.2.26";
const OCSP_BASIC = "1.3.6.1.5.5.7.48.1.1";
const OCSP_NONCE = "1.3.6.1.5.5.7.48.1.2";
const OCSP_SIGNING = "1.3.6.1.5.5.7.3.9";
const { create } = forge.asn1;

export class RevocationUnavailable extends AppError {
  constructor(subject: string, reason: string) {
    super("service_unavailable", `No revocation data for the certificate ${subject}: ${reason}`, undefined, { "Retry-After": "60" });
  }
}

export type Revocation = { ocsps: Uint8Array[]; crls: Uint8Array[]; certificates: Uint8Array[] };

/** The revocation data of every certificate in `certificates` whose issuer is among them and publishes some. */
export async function gatherRevocation(certificates: Uint8Array[], timeoutMs: number): Promise<Revocation> {
  const parsed = certificates.map((der) => new X509Certificate(der));
  const out: Revocation = { ocsps: [], crls: [], certificates: [] };
  for (const cert of parsed) {
    if (cert.checkIssued(cert)) continue; // a root vouches for itself
    const issuer = parsed.find((c) => c !== cert && cert.checkIssued(c) && cert.verify(c.publicKey));
    if (!issuer) continue;
    const subject = cert.subject.replace(/\n/g, ", ");
    const ocsp = ocspUrls(cert)[0];
    const crl = crlUrls(cert)[0];
    try {
      if (ocsp) {
        const answer = await fetchOcsp(ocsp, cert, issuer, timeoutMs);
        out.ocsps.push(answer.der);
        out.certificates.push(...answer.responderCertificates);
      } else if (crl) {
        out.crls.push(await fetchCrl(crl, cert, issuer, timeoutMs));
      }
    } catch (error) {
      throw new RevocationUnavailable(subject, networkFailure(error, timeoutMs));
    }
  }
  return out;
}

const oid = (dotted: string) => create(Class.UNIVERSAL, Type.OID, false, forge.asn1.oidToDer(dotted).getBytes());
const octets = (bytes: Buffer) => create(Class.UNIVERSAL, Type.OCTETSTRING, false, bytes.toString("binary"));

async function fetchOcsp(url: string, cert: X509Certificate, issuer: X509Certificate, timeoutMs: number) {
  const nameHash = sha("sha1", nameDer(issuer, "subject"));
  const keyHash = sha("sha1", publicKeyBits(issuer));
  const nonce = randomBytes(16);
  const certId = create(Class.UNIVERSAL, Type.SEQUENCE, true, [
    create(Class.UNIVERSAL, Type.SEQUENCE, true, [oid(SHA1), create(Class.UNIVERSAL, Type.NULL, false, "")]),
    octets(nameHash),
    octets(keyHash),
    create(Class.UNIVERSAL, Type.INTEGER, false, Buffer.from(cert.serialNumber.length % 2 ? `0${cert.serialNumber}` : cert.serialNumber, "hex").toString("binary")),
  ]);
  const nonceExtension = create(Class.UNIVERSAL, Type.SEQUENCE, true, [oid(OCSP_NONCE), octets(toBytes(octets(nonce)))]);
  const request = create(Class.UNIVERSAL, Type.SEQUENCE, true, [
    create(Class.UNIVERSAL, Type.SEQUENCE, true, [
      create(Class.UNIVERSAL, Type.SEQUENCE, true, [create(Class.UNIVERSAL, Type.SEQUENCE, true, [certId])]),
      create(Class.CONTEXT_SPECIFIC, 2, true, [create(Class.UNIVERSAL, Type.SEQUENCE, true, [nonceExtension])]),
    ]),
  ]);
  const der = await fetchBytes(url, { method: "POST", headers: { "Content-Type": "application/ocsp-request", Accept: "application/ocsp-response" }, body: new Uint8Array(toBytes(request)) }, timeoutMs);

  const response = kids(parseDer(der));
  const status = forge.asn1.derToInteger(String(response[0]?.value ?? ""));
  if (response[0]?.type !== Type.ENUMERATED || status !== 0) throw new Error(`the OCSP responder ${url} answered status ${status}`);
  const bytes = kids(kids(response[1])[0]);
  if (oidOf(bytes[0]) !== OCSP_BASIC) throw new Error(`the OCSP responder ${url} gave no basic response`);
  const [tbs, algorithm, signature, certsField] = kids(parseDer(contentOf(bytes[1])));
  const responderCertificates = kids(kids(certsField)[0]).map((c) => new X509Certificate(toBytes(c)));
  // The issuer signs, or a responder it delegated to (id-kp-OCSPSigning, issued by it).
  const responders = [issuer, ...responderCertificates.filter((r) => r.checkIssued(issuer) && r.verify(issuer.publicKey) && (r.keyUsage ?? []).includes(OCSP_SIGNING))];
  const signed = toBytes(tbs);
  if (!responders.some((r) => verifies(r, oidOf(kids(algorithm)[0]), "", signed, contentOf(signature).subarray(1)))) throw new Error(`the OCSP answer of ${url} is not signed by the issuer or its responder`);

  const fields = kids(tbs).filter((v) => !isContext(v, 0));
  const single = kids(fields[2]).find((r) => {
    const id = kids(kids(r)[0]);
    return serialHex(id[3]) === serialHex(cert.serialNumber) && sameBytes(contentOf(id[2]), keyHash);
  });
  if (!single) throw new Error(`the OCSP answer of ${url} is not about this certificate`);
  const certStatus = kids(single)[1];
  if (isContext(certStatus, 1)) throw new Error(`it is revoked (OCSP ${url})`);
  if (!isContext(certStatus, 0)) throw new Error(`the OCSP responder ${url} does not know it`);
  const nextUpdate = kids(single).find((v) => isContext(v, 0));
  if (nextUpdate && forge.asn1.generalizedTimeToDate(String(kids(nextUpdate)[0]?.value)) < new Date()) throw new Error(`the OCSP answer of ${url} is out of date`);
  const extensions = kids(kids(fields.find((v) => isContext(v, 1)))[0]);
  const echoed = extensions.find((e) => oidOf(kids(e)[0]) === OCSP_NONCE);
  // Responders that pre-produce their answers send no nonce; one that sends one must send ours.
  if (echoed && !sameBytes(contentOf(parseDer(contentOf(kids(echoed).at(-1)))), nonce)) throw new Error(`the OCSP answer of ${url} has another nonce`);
  return { der, responderCertificates: responderCertificates.filter((r) => r !== issuer).map((r) => new Uint8Array(r.raw)) };
}

async function fetchCrl(url: string, cert: X509Certificate, issuer: X509Certificate, timeoutMs: number): Promise<Uint8Array> {
  let der = await fetchBytes(url, { method: "GET" }, timeoutMs);
  const text = Buffer.from(der.subarray(0, 64)).toString("latin1");
  if (text.startsWith("-----BEGIN")) der = new Uint8Array(Buffer.from(Buffer.from(der).toString("latin1").replace(/-----[^-]+-----|\s/g, ""), "base64"));
  const [tbs, algorithm, signature] = kids(parseDer(der));
  if (!verifies(issuer, oidOf(kids(algorithm)[0]), "", toBytes(tbs), contentOf(signature).subarray(1))) throw new Error(`the CRL at ${url} is not signed by the issuer`);
  const fields = kids(tbs);
  const issuerAt = fields[0]?.type === Type.INTEGER ? 2 : 1;
  if (!toBytes(fields[issuerAt]).equals(nameDer(issuer, "subject"))) throw new Error(`the CRL at ${url} is another issuer's`);
  const times = fields.slice(issuerAt + 1).filter((v) => v.type === Type.UTCTIME || v.type === Type.GENERALIZEDTIME);
  const nextUpdate = times[1];
  if (nextUpdate) {
    const date = nextUpdate.type === Type.UTCTIME ? forge.asn1.utcTimeToDate(String(nextUpdate.value)) : forge.asn1.generalizedTimeToDate(String(nextUpdate.value));
    if (date < new Date()) throw new Error(`the CRL at ${url} is out of date`);
  }
  const revoked = fields.slice(issuerAt + 1).find((v) => v.tagClass === Class.UNIVERSAL && v.type === Type.SEQUENCE);
  if (kids(revoked).some((entry) => serialHex(kids(entry)[0]) === serialHex(cert.serialNumber))) throw new Error(`it is revoked (CRL ${url})`);
  return der;
}
