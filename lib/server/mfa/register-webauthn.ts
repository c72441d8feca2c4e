import "server-only";
import { verifyRegistrationResponse, type RegistrationResponseJSON } from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { eq } from "drizzle-orm";
import { mfaWebauthnCredentials } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { iso } from "../present/envelope";
import { assertFactorAllowed, logMfaChange, mfaOwner, recoveryCodesIfNone } from "./account-mfa";
import { findEnrolmentChallenge, spendChallenge } from "./challenges";
import type { RelyingParty } from "./relying-party";

const MAX_KEYS = 20;

/**
 * POST /account/mfa/webauthn (api.md): checks the new key's answer to the stored challenge
 * (origin, relying party, challenge) and keeps its public key under the given name → 201.
 */
export async function registerWebauthn(ctx: AuthedCtx, input: { name: string; response: unknown }, rp: RelyingParty) {
  const user = mfaOwner(ctx);
  await assertFactorAllowed(ctx.db, "webauthn");
  const challenge = await findEnrolmentChallenge(ctx.db, user.id, "webauthn_register");
  if (!challenge?.webauthnChallenge) throw new AppError("conflict", "No security-key registration in progress: ask for options first");
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge.webauthnChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
  } catch (error) {
    throw new AppError("invalid_request", `The security key's answer was refused: ${(error as Error).message}`, [{ path: "response", message: "Refused by verification" }]);
  }
  if (!verified.verified) throw new AppError("invalid_request", "The security key's answer was refused", [{ path: "response", message: "Refused by verification" }]);
  const { credential } = verified.registrationInfo;

  const result = await ctx.db.transaction(async (tx) => {
    if (!(await spendChallenge(tx, challenge.id))) throw new AppError("conflict", "This registration was already used");
    if ((await tx.$count(mfaWebauthnCredentials, eq(mfaWebauthnCredentials.userId, user.id))) >= MAX_KEYS) {
      throw new AppError("conflict", `At most ${MAX_KEYS} security keys per account`);
    }
    const [row] = await tx
      .insert(mfaWebauthnCredentials)
      .values({
        userId: user.id,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: input.name,
      })
      .returning();
    return { row, recoveryCodes: await recoveryCodesIfNone(tx, user.id) };
  });
  await logMfaChange(ctx, user, `Two-step verification: security key "${input.name}" added`);
  const { row, recoveryCodes } = result;
  return { id: row.id, name: row.name, creation: iso(row.createdAt)!, last_used: null, ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) };
}
