import "server-only";
import { eq } from "drizzle-orm";
import { identityProviders } from "@/db/schema";
import { SECRET_FIELDS, SECRET_PLACEHOLDER } from "@/lib/contracts/identity-providers";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { assertIdentityAdmin, getIdentityProviderOrThrow } from "./get-identity-provider";
import { encryptProviderSecrets, mergeProviderBody, presentIdentityProvider, splitProvider, storedBody } from "./provider-config";

/**
 * PUT /identity/provider/(id): a partial update merged over the stored configuration and
 * validated as a whole for the provider's type; a secret omitted or sent as the placeholder
 * stays, `null` or "" removes it.
 */
export async function updateIdentityProvider(ctx: AuthedCtx, providerId: number, changes: Record<string, unknown>) {
  assertIdentityAdmin(ctx);
  const row = await ctx.db.transaction(async (tx) => {
    const current = await getIdentityProviderOrThrow(tx, providerId);
    const input = mergeProviderBody(await storedBody(current), changes, current.type);
    const { columns, settings, secrets } = splitProvider(input);
    const [updated] = await tx
      .update(identityProviders)
      .set({ ...columns, settings, secrets: await encryptProviderSecrets(secrets), updatedAt: new Date() })
      .where(eq(identityProviders.id, providerId))
      .returning();
    // The log names what changed, never a secret's value.
    const names = Object.keys(changes).filter((k) => k !== "id" && !(SECRET_FIELDS[current.type].includes(k) && changes[k] === SECRET_PLACEHOLDER));
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
      type: "ADMLLOG_UPDATE",
      message: `Updated identity provider ${updated.name}${names.length ? `: ${names.join(", ")}` : ""}`,
      objectType: "identity_provider",
      objectId: updated.id,
      object: updated.name,
    });
    return updated;
  });
  return presentIdentityProvider(row);
}
