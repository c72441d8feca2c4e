import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { getPlatformConfig, type PlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";

export type FolderChangeKind = "file_created" | "version_created" | "deleted" | "annotation";

export type FolderChange = {
  kind: FolderChangeKind;
  objectType: "file" | "folder";
  /** A file's logical id or a folder's id. */
  objectId: number;
  objectName: string;
  /** The folder the change happened in: by default a file's folder, or the folder itself. */
  folderId?: number;
};

export const DIGEST_JOB = "alerts.digest";

/** ALERT_DIGEST_SECONDS (default 300): how long a digest gathers changes before it is mailed. */
export function digestDelaySeconds(): number {
  const value = Number(process.env.ALERT_DIGEST_SECONDS);
  return Number.isFinite(value) && value >= 0 ? value : 300;
}

/**
 * Called in the transaction of a change (upload, new version, deletion, annotation): for each
 * user followed by an active alert on the folder or an ancestor (a group alert counts for each
 * member; the nearest alert wins, the user's own before a group's), writes a digest line and
 * queues that user's digest job, once per user while it is pending. The actor is left out unless
 * the platform option self_alert is on. One statement, so that uploads stay cheap; whether each
 * recipient may read the folder is checked by the digest job with the rights resolver, which also
 * drops lines of folders they lost access to in the meantime.
 */
export async function recordFolderChange(db: DbOrTx, ctx: AuthedCtx, change: FolderChange, config?: Pick<PlatformConfig, "self_alert">): Promise<void> {
  // `config` when the caller has it: the statement then goes out at once (commitUpload sends its COMMIT right behind).
  const { self_alert } = config ?? (await getPlatformConfig(db));
  const actorId = ctx.actor.user.id;
  const where =
    change.folderId !== undefined
      ? sql`${change.folderId}::int`
      : change.objectType === "folder"
        ? sql`${change.objectId}::int`
        : sql`(SELECT folder_id FROM files WHERE id = ${change.objectId}::int)`;
  // Followers of a deleted folder itself are told too, though the change is shown in its parent.
  const itself = change.objectType === "folder" ? sql`ARRAY[${change.objectId}::int]` : sql`'{}'::int[]`;
  await db.execute(sql`
    WITH place AS (
      SELECT f.id, f.path || f.id || ${itself} AS chain FROM folders f WHERE f.id = ${where}
    ), hits AS (
      SELECT DISTINCT ON (r.id) r.id AS recipient_id, a.id AS alert_id, place.id AS folder_id
      FROM place
      JOIN alerts a ON a.folder_id = ANY(place.chain)
      CROSS JOIN LATERAL (SELECT a.target_id AS id UNION ALL SELECT user_id FROM group_members WHERE group_id = a.target_id) r
      JOIN users u ON u.id = r.id AND u.deleted_at IS NULL AND u.active
      WHERE a.active AND (a.expiration_date IS NULL OR a.expiration_date > now())
        AND (${self_alert}::boolean OR r.id <> ${actorId}::int)
      ORDER BY r.id, array_position(place.chain, a.folder_id) DESC, (a.target_id = r.id) DESC
    ), recorded AS (
      INSERT INTO alert_changes (recipient_id, alert_id, folder_id, kind, object_type, object_id, object_name, actor_id)
      SELECT recipient_id, alert_id, folder_id, ${change.kind}, ${change.objectType}, ${change.objectId}::int, ${change.objectName}, ${actorId}::int FROM hits
      RETURNING recipient_id
    )
    INSERT INTO jobs (kind, payload, dedupe_key, run_at)
    SELECT DISTINCT ${DIGEST_JOB}::text, jsonb_build_object('recipientId', recipient_id), ${DIGEST_JOB}::text || ':' || recipient_id,
      now() + ${digestDelaySeconds()}::float8 * interval '1 second'
    FROM recorded
    ON CONFLICT (dedupe_key) WHERE status = 'pending' DO NOTHING`);
}
