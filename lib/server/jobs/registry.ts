import "server-only";
import type { Db } from "@/db";

/** What a handler knows of its run: on the last attempt, a failure is final (the job ends failed). */
export type JobRun = { lastAttempt: boolean };

export type JobHandler = (db: Db, payload: Record<string, unknown>, run: JobRun) => Promise<void>;

// Each kind loads its handler on first use, so the worker does not import every domain at boot.
const HANDLERS: Record<string, () => Promise<JobHandler>> = {
  "account.password-reset": async () => (await import("../account/request-password-reset")).sendPasswordResetJob,
  "mail.send": async () => (await import("../mail/send-mail-job")).sendMailJob,
  "trash.purge": async () => (await import("../trash/purge-expired-trash")).purgeExpiredTrashJob,
  "trash.empty": async () => (await import("../trash/empty-trash-job")).emptyTrashJob,
  "trash.mark": async () => (await import("../trash/mark-trashed-files-job")).markTrashedFilesJob,
  "blobs.collect": async () => (await import("../blobs/collect-blobs")).collectBlobsJob,
  "uploads.collect": async () => (await import("../uploads/collect-uploads")).collectUploadsJob,
  "alerts.digest": async () => (await import("../alerts/digest-job")).alertDigestJob,
  "previews.make": async () => (await import("../previews/make-preview")).makePreviewJob,
  "texts.extract": async () => (await import("../texts/extract-text")).extractTextJob,
  "files.meta": async () => (await import("../meta/extract-meta-job")).extractMetaJob,
  "texts.ocr": async () => (await import("../texts/ocr-job")).ocrTextJob,
  "stats.sample": async () => (await import("../stats/sample-stats")).sampleStatsJob,
  "signatures.complete": async () => (await import("../signatures/complete-signature-request")).completeSignatureJob,
  "signatures.tick": async () => (await import("../signatures/signatures-tick")).signaturesTickJob,
  "identity.sync": async () => (await import("../identity/sync-directory")).syncIdentityJob,
  "sso.purge": async () => (await import("../sso/purge-sso-accounts")).purgeSsoAccountsJob,
  "oauth2.purge": async () => (await import("../oauth2/purge-expired-tokens")).purgeExpiredOAuthTokensJob,
  "archives.move": async () => (await import("../archives/move-archive-job")).moveArchiveJob,
  "archives.restore": async () => (await import("../archives/restore-archive-job")).restoreArchiveJob,
  "engagement.daily": async () => (await import("../engagement/jobs/engagement-daily")).engagementDailyJob,
};

export async function handlerFor(kind: string): Promise<JobHandler | undefined> {
  return HANDLERS[kind]?.();
}

export function registerJobHandler(kind: string, load: () => Promise<JobHandler>) {
  HANDLERS[kind] = load;
}
