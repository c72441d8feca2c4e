import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { jobs } from "@/db/schema";
import { isLdapType } from "@/lib/contracts/identity-providers";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { assertIdentityAdmin, getIdentityProviderOrThrow } from "./get-identity-provider";
import { SYNC_JOB } from "./sync-directory";

/**
 * POST /identity/provider/(id)/sync: queues the `identity.sync` job for this provider and answers
 * 202 with its id; a synchronisation already waiting is answered instead of queuing another.
 */
export async function syncIdentityProvider(ctx: AuthedCtx, providerId: number) {
  assertIdentityAdmin(ctx);
  const provider = await getIdentityProviderOrThrow(ctx.db, providerId);
  if (!isLdapType(provider.type)) {
    throw new AppError("invalid_request", `Providers of type ${provider.type} have no directory to synchronise`, [{ path: "type", message: "Only ldap, adds and domino providers synchronise" }]);
  }
  if (!provider.enable) throw new AppError("conflict", "This provider is disabled: enable it before synchronising");
  const dedupeKey = `${SYNC_JOB}:${provider.id}`;
  const job = await ctx.db.transaction(async (tx) => {
    let row: { id: number } | undefined;
    // The pending job may be claimed by a worker between the insert and the look-up: then queue anew.
    for (let attempt = 0; !row && attempt < 3; attempt++) {
      [row] = await tx
        .insert(jobs)
        .values({ kind: SYNC_JOB, payload: { provider_id: provider.id }, dedupeKey, maxAttempts: 3 })
        .onConflictDoNothing({ target: jobs.dedupeKey, where: sql`${jobs.status} = 'pending'` })
        .returning({ id: jobs.id });
      row ??= (await tx.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.dedupeKey, dedupeKey), eq(jobs.status, "pending"))).limit(1))[0];
    }
    if (!row) throw new AppError("conflict", "A synchronisation is starting; try again in a moment");
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
      type: "ADMLLOG_UPDATE",
      message: `Asked for a synchronisation of identity provider ${provider.name}`,
      objectType: "identity_provider",
      objectId: provider.id,
      object: provider.name,
    });
    return row;
  });
  return Response.json({ job_id: job.id, provider_id: String(provider.id), status: "pending" }, { status: 202 });
}
