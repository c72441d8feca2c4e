import "server-only";
import { identityProviders } from "@/db/schema";
import type { IdentityProviderInput } from "@/lib/contracts/identity-providers";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { assertIdentityAdmin } from "./get-identity-provider";
import { encryptProviderSecrets, presentIdentityProvider, splitProvider } from "./provider-config";

/** POST /identity/provider: 201 with the provider; its secrets are stored encrypted. */
export async function createIdentityProvider(ctx: AuthedCtx, input: IdentityProviderInput) {
  assertIdentityAdmin(ctx);
  const { columns, settings, secrets } = splitProvider(input);
  const encrypted = await encryptProviderSecrets(secrets);
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx.insert(identityProviders).values({ ...columns, settings, secrets: encrypted }).returning();
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: `Created identity provider ${created.name} (${created.type})`,
      objectType: "identity_provider",
      objectId: created.id,
      object: created.name,
    });
    return created;
  });
  return presentIdentityProvider(row);
}
