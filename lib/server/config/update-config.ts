import "server-only";
import { isDeepStrictEqual } from "node:util";
import { sql } from "drizzle-orm";
import { platformConfig } from "@/db/schema";
import { type ConfigPatch, type ConfigView, PASSWORD_MASK, type PlatformConfig } from "@/lib/contracts/config";
import { writeLog } from "../audit/write-log";
import { type AuthedCtx, isAdmin } from "../context";
import { AppError, forbidden } from "../errors";
import { assertAdministratorsCanConnect } from "../options/assert-administrators-can-connect";
import { requeueOutbox } from "../mail/requeue-outbox";
import { isSmtpConfigured } from "../mail/transport";
import { forgetCachedConfig, mergeConfig, readStoredConfig } from "./platform-config";
import { presentConfig } from "./present-config";

// Two administrators saving at once must not lose each other's keys (read-merge-write); the logo services take it too.
export const CONFIG_LOCK = 727002;

/**
 * PUT /config: stores the given keys (nested ones merged), for administrators. The masked SMTP
 * password sent back by a client keeps the stored one. Once SMTP is configured, every mail
 * that waited in the outbox is queued again.
 */
export async function updateConfig(ctx: AuthedCtx, patch: ConfigPatch): Promise<ConfigView> {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  const changes: Record<string, unknown> = { ...patch };
  if (patch.smtp) {
    const { smtp_password, ...smtp } = patch.smtp;
    changes.smtp = smtp_password === undefined || smtp_password === PASSWORD_MASK ? smtp : { ...smtp, smtp_password };
  }

  const after = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${CONFIG_LOCK})`);
    const before = await readStoredConfig(tx);
    const merged = mergeConfig(before, changes);
    const changed = changedPaths(before, merged);
    if (changed.length === 0) return merged;
    if (merged.smtp.smtp_override && !merged.smtp.smtp_host) {
      throw new AppError("invalid_request", "Invalid request: the console's SMTP settings need a host to replace SMTP_URL's", [
        { path: "smtp.smtp_host", message: "Give a host, or leave smtp_override off" },
      ]);
    }

    for (const key of new Set(changed.map((p) => p.split(".")[0]))) {
      // jsonb is NOT NULL: a null option (no platform quota) is stored as JSON null.
      const value = sql`${JSON.stringify(merged[key as keyof PlatformConfig])}::jsonb`;
      await tx
        .insert(platformConfig)
        .values({ key, value, updatedAt: new Date() })
        .onConflictDoUpdate({ target: platformConfig.key, set: { value, updatedAt: new Date() } });
    }
    // Connection hours are read in the platform's zone: a new zone must leave an administrator able to connect.
    if (changed.includes("time_zone")) await assertAdministratorsCanConnect(tx, ctx.request.ip, merged.time_zone);
    const smtpChanged = changed.some((p) => p.startsWith("smtp."));
    const requeued = smtpChanged && isSmtpConfigured(merged.smtp.smtp_host) ? await requeueOutbox(tx) : 0;
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
      type: "ADMLLOG_CONFIG",
      message: `Changed the platform configuration: ${changed.map((p) => describe(p, merged)).join(", ")}${requeued ? `; ${requeued} waiting mails queued` : ""}`,
      objectType: "config",
      object: changed.join(", ").slice(0, 1000),
    });
    return merged;
  });
  forgetCachedConfig();
  return presentConfig(after);
}

/** `key` or `key.sub` for every option whose value changed. */
function changedPaths(before: PlatformConfig, after: PlatformConfig): string[] {
  const paths: string[] = [];
  for (const key of Object.keys(after) as (keyof PlatformConfig)[]) {
    const a = before[key];
    const b = after[key];
    if (isDeepStrictEqual(a, b)) continue;
    if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
      for (const sub of Object.keys(b)) {
        if (!isDeepStrictEqual((a as Record<string, unknown>)[sub], (b as Record<string, unknown>)[sub])) paths.push(`${key}.${sub}`);
      }
    } else {
      paths.push(key);
    }
  }
  return paths;
}

function describe(path: string, config: PlatformConfig): string {
  if (path === "smtp.smtp_password") return path;
  const [key, sub] = path.split(".");
  const holder = config[key as keyof PlatformConfig] as unknown;
  const value = sub ? (holder as Record<string, unknown>)[sub] : holder;
  return `${path}=${JSON.stringify(value)}`;
}
