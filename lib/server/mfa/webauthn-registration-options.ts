import "server-only";
import { randomBytes } from "node:crypto";
import { generateRegistrationOptions } from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { eq } from "drizzle-orm";
import { userMfa } from "@/db/schema";
import type { ReauthInput } from "@/lib/contracts/account";
import { displayName } from "../audit/write-log";
import { reauthenticate } from "../auth/reauthenticate";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { assertFactorAllowed, mfaOwner, saveUserMfa } from "./account-mfa";
import { createChallenge } from "./challenges";
import type { RelyingParty } from "./relying-party";
import { listCredentials, transportsOf, WEBAUTHN_TIMEOUT_MS } from "./webauthn";

/**
 * POST /account/mfa/webauthn/options (api.md): options for navigator.credentials.create,
 * re-authenticated: the challenge kept on the server is what POST /account/mfa/webauthn needs to
 * store a key. The user's keys are excluded so one key is not added twice.
 */
export async function webauthnRegistrationOptions(ctx: AuthedCtx, rp: RelyingParty, input: ReauthInput) {
  const user = mfaOwner(ctx);
  await assertFactorAllowed(ctx.db, "webauthn");
  await reauthenticate(ctx, input);
  const [row] = await ctx.db.select({ handle: userMfa.webauthnUserId }).from(userMfa).where(eq(userMfa.userId, user.id)).limit(1);
  let handle = row?.handle;
  if (!handle) {
    // @simplewebauthn 14 wants the user handle as bytes; a random one tells an authenticator nothing about the account.
    handle = randomBytes(32).toString("base64url");
    await saveUserMfa(ctx.db, user.id, { webauthnUserId: handle });
  }
  const [config, keys] = await Promise.all([getPlatformConfig(ctx.db), listCredentials(ctx.db, user.id)]);
  const options = await generateRegistrationOptions({
    rpName: config.platform_name,
    rpID: rp.rpID,
    userName: user.login,
    userID: isoBase64URL.toBuffer(handle),
    userDisplayName: displayName(user),
    timeout: WEBAUTHN_TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: keys.map((k) => ({ id: k.credentialId, transports: transportsOf(k) })),
    authenticatorSelection: { residentKey: "discouraged", userVerification: "preferred" },
  });
  await createChallenge(ctx.db, user.id, "webauthn_register", { webauthnChallenge: options.challenge });
  return options;
}
