import "server-only";
import { eq } from "drizzle-orm";
import { mfaChallenges } from "@/db/schema";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { getSignInChallengeOrThrow } from "./challenges";
import type { RelyingParty } from "./relying-party";
import { authenticationOptions } from "./webauthn";

/** POST /auth/mfa/webauthn/options: a fresh challenge for the user's security keys, kept with the sign-in. */
export async function signInWebauthnOptions(ctx: Ctx, mfaToken: string, rp: RelyingParty) {
  const challenge = await getSignInChallengeOrThrow(ctx.db, mfaToken);
  const options = await authenticationOptions(ctx.db, challenge.userId, rp);
  if (!options.allowCredentials?.length) throw new AppError("conflict", "This account has no security key");
  await ctx.db.update(mfaChallenges).set({ webauthnChallenge: options.challenge }).where(eq(mfaChallenges.id, challenge.id));
  return options;
}
