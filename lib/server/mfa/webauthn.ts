import "server-only";
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { mfaWebauthnCredentials, type WebauthnCredentialRow } from "@/db/schema";
import type { RelyingParty } from "./relying-party";

/** How long a browser may take over a security-key prompt. */
export const WEBAUTHN_TIMEOUT_MS = 120_000;

export const transportsOf = (row: Pick<WebauthnCredentialRow, "transports">): string[] => (Array.isArray(row.transports) ? row.transports : []);

export async function listCredentials(db: DbOrTx, userId: number) {
  return db.select().from(mfaWebauthnCredentials).where(eq(mfaWebauthnCredentials.userId, userId)).orderBy(mfaWebauthnCredentials.id);
}

/** Options for navigator.credentials.get, limited to the user's own keys. */
export async function authenticationOptions(db: DbOrTx, userId: number, rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const keys = await listCredentials(db, userId);
  return generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials: keys.map((k) => ({ id: k.credentialId, transports: transportsOf(k) })),
    userVerification: "preferred",
    timeout: WEBAUTHN_TIMEOUT_MS,
  });
}

/**
 * Checks a signed challenge against the user's stored key and moves its counter on. A key of
 * another account, a stale challenge, another origin or a counter going backwards (a cloned key)
 * all answer false.
 */
export async function verifyAssertion(db: DbOrTx, userId: number, rp: RelyingParty, expectedChallenge: string, response: AuthenticationResponseJSON): Promise<boolean> {
  const [key] = await db
    .select()
    .from(mfaWebauthnCredentials)
    .where(and(eq(mfaWebauthnCredentials.userId, userId), eq(mfaWebauthnCredentials.credentialId, response.id)))
    .limit(1);
  if (!key) return false;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: { id: key.credentialId, publicKey: isoBase64URL.toBuffer(key.publicKey), counter: key.counter, transports: transportsOf(key) },
      // A second factor: presence of the key is what counts; a PIN is the authenticator's business.
      requireUserVerification: false,
    });
    if (!result.verified) return false;
    await db.update(mfaWebauthnCredentials).set({ counter: result.authenticationInfo.newCounter, lastUsedAt: new Date() }).where(eq(mfaWebauthnCredentials.id, key.id));
    return true;
  } catch {
    // The library throws on anything malformed or mismatched; to the caller it is a wrong answer.
    return false;
  }
}
