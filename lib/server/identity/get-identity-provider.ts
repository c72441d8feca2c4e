import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { identityProviders } from "@/db/schema";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden, notFound } from "../errors";
import { presentIdentityProvider } from "./provider-config";

export function assertIdentityAdmin(ctx: AuthedCtx) {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
}

export async function getIdentityProviderOrThrow(db: DbOrTx, providerId: number) {
  const [row] = await db.select().from(identityProviders).where(eq(identityProviders.id, providerId)).limit(1);
  if (!row) throw notFound("Identity provider");
  return row;
}

/** GET /identity/provider/(id): administrators only; secrets shown as the placeholder. */
export async function readIdentityProvider(ctx: AuthedCtx, providerId: number) {
  assertIdentityAdmin(ctx);
  return presentIdentityProvider(await getIdentityProviderOrThrow(ctx.db, providerId));
}
