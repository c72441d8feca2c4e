import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A software security key for API tests: a real P-256 key pair answering WebAuthn ceremonies the
 * way a USB key does (packed "none" attestation, ES256 signatures, a signature counter), built
 * on @simplewebauthn's CBOR and base64url helpers. The server verifies it with the same library
 * and code paths as a browser's answer; nothing on the server side is stubbed.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly x: Buffer;
  private readonly y: Buffer;
  counter = 0;

  constructor(readonly origin: string) {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = createPrivateKey(privateKey.export({ format: "pem", type: "pkcs8" }));
    const jwk = privateKey.export({ format: "jwk" });
    this.x = Buffer.from(jwk.x!, "base64url");
    this.y = Buffer.from(jwk.y!, "base64url");
  }

  get id() {
    return isoBase64URL.fromBuffer(this.credentialId);
  }

  private rpIdHash(rpId: string) {
    return createHash("sha256").update(rpId).digest();
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin = this.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private counterBytes() {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(this.counter);
    return b;
  }

  /** navigator.credentials.create's answer to registration options, as @simplewebauthn/browser returns it. */
  register(options: { challenge: string; rp: { id?: string } }, overrides: { origin?: string; rpId?: string } = {}) {
    const rpId = overrides.rpId ?? options.rp.id!;
    const cose = isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, new Uint8Array(this.x)], [-3, new Uint8Array(this.y)]]));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    this.counter += 1;
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const authData = Buffer.concat([this.rpIdHash(rpId), Buffer.from([0x45]), this.counterBytes(), Buffer.alloc(16), idLength, this.credentialId, Buffer.from(cose)]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", new Uint8Array(authData)]]) as never);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(this.clientData("webauthn.create", options.challenge, overrides.origin)),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ["usb"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "cross-platform",
    };
  }

  /** navigator.credentials.get's answer to authentication options: a signature over the challenge. */
  authenticate(options: { challenge: string; rpId?: string }, overrides: { origin?: string; counter?: number } = {}) {
    this.counter = overrides.counter ?? this.counter + 1;
    const authData = Buffer.concat([this.rpIdHash(options.rpId!), Buffer.from([0x05]), this.counterBytes()]);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, overrides.origin);
    const signature = sign("sha256", Buffer.concat([authData, createHash("sha256").update(clientDataJSON).digest()]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientDataJSON),
        authenticatorData: isoBase64URL.fromBuffer(authData),
        signature: isoBase64URL.fromBuffer(signature),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "cross-platform",
    };
  }
}
