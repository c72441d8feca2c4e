import "server-only";
import { sql } from "drizzle-orm";
import { platformConfig } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { writeLog } from "../audit/write-log";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden } from "../errors";
import type { BodySource } from "../http/body-source";
import { streamMultipartFile } from "../http/multipart";
import { storeNormalisedLogo } from "./logo-image";
import { forgetCachedConfig, logoPath, readStoredConfig } from "./platform-config";
import { CONFIG_LOCK } from "./update-config";

/** A logo is a small picture: 2 MB is plenty for any source file. */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;

/**
 * POST /config/logo: multipart part `targetFile`, at most 2 MB, for administrators. The image is
 * re-encoded (logo-image.ts) into a new blob, recorded under the configuration key `logo`; the
 * previous logo's blob is deleted once the change is committed.
 */
export async function updateLogo(ctx: AuthedCtx, source: BodySource): Promise<{ logo_url: string }> {
  // Rights first: a refused caller must not get to send 2 MB.
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  const store = getBlobStore();
  const { result: logo } = await streamMultipartFile(source, {
    field: "targetFile",
    maxFileBytes: MAX_LOGO_BYTES,
    onFile: ({ stream }) => storeNormalisedLogo(stream),
    discard: (stored) => store.delete(stored.blob_id),
  });

  let previous: string | null;
  try {
    previous = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${CONFIG_LOCK})`);
      const before = await readStoredConfig(tx);
      const value = sql`${JSON.stringify(logo)}::jsonb`;
      await tx
        .insert(platformConfig)
        .values({ key: "logo", value, updatedAt: new Date() })
        .onConflictDoUpdate({ target: platformConfig.key, set: { value, updatedAt: new Date() } });
      await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
        type: "ADMLLOG_CONFIG",
        message: `Changed the platform logo (${logo.width}x${logo.height} PNG)`,
        objectType: "config",
        object: "logo",
      });
      return before.logo?.blob_id ?? null;
    });
  } catch (error) {
    await store.delete(logo.blob_id).catch(() => {});
    throw error;
  }
  forgetCachedConfig();
  // After the commit: a failed delete leaves an orphan blob for garbage collection, never a dangling reference.
  if (previous && previous !== logo.blob_id) await store.delete(previous).catch(() => {});
  return { logo_url: logoPath(logo)! };
}
