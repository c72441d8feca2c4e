import "server-only";
import type { AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { verifyPassword } from "./passwords";
import { assertNotThrottled, clearFailures, recordFailure } from "./throttle";

/**
 * The signed-in person confirms it is them with their password, before a change that adds a way
 * into the account: a stolen session alone cannot. Throttled per account and address, in the
 * namespace of the password change (update-account.ts), so guesses through either add up.
 */
export async function assertPasswordConfirmed(ctx: AuthedCtx, password: string): Promise<void> {
  const user = ctx.actor.user;
  if (!user.passwordHash) throw forbidden("This account has no password here to confirm it is you; ask an administrator");
  const scope = { namespace: "password", subject: String(user.id), ip: ctx.request.ip };
  await assertNotThrottled(ctx.db, scope);
  if (!(await verifyPassword(user.passwordHash, password))) {
    await recordFailure(ctx.db, scope);
    throw forbidden("The password is wrong");
  }
  await clearFailures(ctx.db, scope);
}
