import "server-only";
import { eq, sql } from "drizzle-orm";
import { platformConfig } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { writeLog } from "../audit/write-log";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden } from "../errors";
import { forgetCachedConfig, readStoredConfig } from "./platform-config";
import { CONFIG_LOCK } from "./update-config";

/** DELETE /config/logo: back to the default mark; no logo is already the wanted state (204). */
export async function deleteLogo(ctx: AuthedCtx): Promise<void> {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  const previous = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${CONFIG_LOCK})`);
    const { logo } = await readStoredConfig(tx);
    if (!logo) return null;
    await tx.delete(platformConfig).where(eq(platformConfig.key, "logo"));
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_CONFIG", message: "Removed the platform logo", objectType: "config", object: "logo" });
    return logo.blob_id;
  });
  forgetCachedConfig();
  // After the commit: a failed delete leaves an orphan blob for garbage collection, never a dangling reference.
  if (previous) await getBlobStore().delete(previous).catch(() => {});
}
