import "server-only";
/**
 * An RFC 3161 client: asks the timestamp authority for a token over SHA-256 of `data` (with a
 * nonce and certReq, so the token carries the TSA's certificate) and returns it only once the
 * reply is checked: status granted, the same nonce and message imprint, the policy asked for,
 * and the TSA's CMS signature over the TSTInfo valid with the certificate it carries.
 */
import { createHash, randomBytes, X509Certificate } from "node:crypto";
import forge from "node-forge";
import { AppError } from "@/lib/server/errors";
import { certificatesOf, Class, contentOf, firstSignerInfo, hashName, isContext, kids, oidOf, parseDer, sameBytes, serialHex, sha, signedDataOf, toBytes, Type, verifies, type Asn1 } from "./cms-in-pdf";
import { nameDer, subjectKeyId } from "./certificate-fields";
import { fetchBytes, networkFailure, type TsaSettings } from "./long-term";

const SHA256 = "2.16.840.1.101.3.4.2.1";
const TST_INFO = "1.2.840.113549.1.9.16.1.4";
const MESSAGE_DIGEST = "1.2.840.113549.1.9.4";
const CONTENT_TYPE = "1.2.840.113549.1.9.3";
const { create } = forge.asn1;

/** Why a timestamp could not be had: the seal fails (503) and its job tries again later. */
export class TimestampUnavailable extends AppError {
  constructor(reason: string) {
    super("service_unavailable", `The timestamp authority gave no usable timestamp: ${reason}`, undefined, { "Retry-After": "60" });
  }
}

export type Timestamp = { token: Uint8Array; time: Date };

export async function requestTimestamp(tsa: TsaSettings, data: Uint8Array, timeoutMs: number): Promise<Timestamp> {
  const imprint = sha("sha256", data);
  const nonce = randomBytes(16);
  nonce[0] = (nonce[0] & 0x7f) | 0x01; // positive, minimal INTEGER
  const request = toBytes(
    create(Class.UNIVERSAL, Type.SEQUENCE, true, [
      create(Class.UNIVERSAL, Type.INTEGER, false, forge.asn1.integerToDer(1).getBytes()),
      messageImprint(imprint),
      ...(tsa.policy ? [create(Class.UNIVERSAL, Type.OID, false, forge.asn1.oidToDer(tsa.policy).getBytes())] : []),
      create(Class.UNIVERSAL, Type.INTEGER, false, nonce.toString("binary")),
      create(Class.UNIVERSAL, Type.BOOLEAN, false, String.fromCharCode(0xff)),
    ]),
  );
  const headers: Record<string, string> = { "Content-Type": "application/timestamp-query", Accept: "application/timestamp-reply" };
  if (tsa.user !== undefined) headers.Authorization = `Basic ${Buffer.from(`${tsa.user}:${tsa.password ?? ""}`).toString("base64")}`;
  let reply: Uint8Array;
  try {
    reply = await fetchBytes(tsa.url, { method: "POST", headers, body: new Uint8Array(request) }, timeoutMs);
  } catch (error) {
    throw new TimestampUnavailable(networkFailure(error, timeoutMs));
  }
  try {
    return checkReply(reply, { imprint, nonce, policy: tsa.policy });
  } catch (error) {
    throw new TimestampUnavailable(error instanceof Error ? error.message : String(error));
  }
}

function messageImprint(digest: Buffer): Asn1 {
  return create(Class.UNIVERSAL, Type.SEQUENCE, true, [
    create(Class.UNIVERSAL, Type.SEQUENCE, true, [create(Class.UNIVERSAL, Type.OID, false, forge.asn1.oidToDer(SHA256).getBytes()), create(Class.UNIVERSAL, Type.NULL, false, "")]),
    create(Class.UNIVERSAL, Type.OCTETSTRING, false, digest.toString("binary")),
  ]);
}

/** TimeStampResp (RFC 3161, 2.4.2) → the token, or why it is refused. */
function checkReply(reply: Uint8Array, asked: { imprint: Buffer; nonce: Buffer; policy?: string }): Timestamp {
  let response: Asn1;
  try {
    response = parseDer(reply);
  } catch {
    throw new Error("the reply is not a DER TimeStampResp");
  }
  const [statusInfo, token] = kids(response);
  const status = kids(statusInfo)[0];
  if (status?.type !== Type.INTEGER) throw new Error("the reply has no status");
  const code = forge.asn1.derToInteger(status.value as string);
  // granted (0) or grantedWithMods (1); rejection, waiting... carry no token.
  if (code !== 0 && code !== 1) throw new Error(`the TSA refused (PKIStatus ${code}${statusText(statusInfo)})`);
  if (!token || oidOf(kids(token)[0]) !== "1.2.840.113549.1.7.2") throw new Error("the reply carries no timestamp token");

  const encapsulated = kids(signedDataOf(token)[2]);
  if (oidOf(encapsulated[0]) !== TST_INFO) throw new Error("the token does not hold a TSTInfo");
  const tstInfoDer = contentOf(kids(encapsulated[1])[0]);
  const tstInfo = kids(parseDer(tstInfoDer));
  const [, policy, imprint, , genTime] = tstInfo;
  const [imprintAlgorithm, hashed] = kids(imprint);
  if (oidOf(kids(imprintAlgorithm)[0]) !== SHA256 || !sameBytes(contentOf(hashed), asked.imprint)) throw new Error("the token's message imprint is not the one asked for");
  const nonce = tstInfo.slice(5).find((v) => v.tagClass === Class.UNIVERSAL && v.type === Type.INTEGER);
  if (!nonce || !sameBytes(contentOf(nonce), asked.nonce)) throw new Error("the token's nonce is not the one sent");
  if (asked.policy && oidOf(policy) !== asked.policy) throw new Error(`the token's policy is ${oidOf(policy)}, not ${asked.policy}`);
  if (genTime?.type !== Type.GENERALIZEDTIME) throw new Error("the token has no time");
  const time = forge.asn1.generalizedTimeToDate(genTime.value as string);

  checkTokenSignature(token, tstInfoDer);
  return { token: new Uint8Array(toBytes(token)), time };
}

function statusText(statusInfo: Asn1): string {
  const text = kids(kids(statusInfo)[1]).map((s) => Buffer.from(String(s.value), "binary").toString("utf8"));
  return text.length ? `: ${text.join(" ").slice(0, 200)}` : "";
}

/** The TSA's signature (RFC 5652, 5.4) over the signed attributes, whose messageDigest is that of the TSTInfo. */
function checkTokenSignature(token: Asn1, tstInfoDer: Buffer) {
  const signerInfo = firstSignerInfo(token);
  const [, sid, digestAlgorithm, attributes, signatureAlgorithm, signature] = signerInfo;
  if (!isContext(attributes, 0)) throw new Error("the token has no signed attributes");
  const digest = oidOf(kids(digestAlgorithm)[0]);
  const attribute = (oid: string) => kids(kids(kids(attributes).find((a) => oidOf(kids(a)[0]) === oid))[1])[0];
  if (oidOf(attribute(CONTENT_TYPE)) !== TST_INFO) throw new Error("the token's content type attribute is not TSTInfo");
  const hash = hashName(digest);
  if (!hash || !sameBytes(contentOf(attribute(MESSAGE_DIGEST)), createHash(hash).update(tstInfoDer).digest())) throw new Error("the token's message digest does not match its TSTInfo");
  const signerCertificate = signerOf(certificatesOf(token), sid);
  if (!signerCertificate) throw new Error("the token does not carry the TSA's certificate");
  const signedBytes = toBytes(create(Class.UNIVERSAL, Type.SET, true, kids(attributes)));
  if (!verifies(signerCertificate, oidOf(kids(signatureAlgorithm)[0]), digest, signedBytes, contentOf(signature))) throw new Error("the TSA's signature over the token does not verify");
}

/** The certificate a SignerInfo's sid names (issuerAndSerialNumber, or [0] subjectKeyIdentifier). */
function signerOf(certificates: Uint8Array[], sid: Asn1): X509Certificate | undefined {
  const parsed = certificates.map((der) => new X509Certificate(der));
  if (isContext(sid, 0)) {
    const ski = contentOf(sid).toString("hex");
    return parsed.find((c) => subjectKeyId(c) === ski);
  }
  const issuer = toBytes(kids(sid)[0]);
  return parsed.find((c) => serialHex(c.serialNumber) === serialHex(kids(sid)[1]) && nameDer(c, "issuer").equals(issuer));
}
