import "server-only";
import { createHash } from "node:crypto";
import type { BodySource } from "../http/body-source";
import { eq } from "drizzle-orm";
import { folders, ulinkDeposits } from "@/db/schema";
import { depositorFields, ULINK_FLAG, type DepositorFields, type DepositorOption } from "@/lib/contracts/ulinks";
import { writeLog } from "../audit/write-log";
import { AppError } from "../errors";
import type { AuthedCtx, Ctx } from "../context";
import { FOLDER_EVENT, recordEvent } from "../events/record-event";
import type { UlinkVisit } from "../links/resolve-link-visitor";
import { uploadFile } from "../uploads/upload-file";
import { notifyUsers } from "../notifications/notify";
import { queueDepositReceipt } from "./deposit-receipt";

export type DepositOutcome = { kind: "file"; deposit: { size: number; hash: string } } | { kind: "received" } | { kind: "missing"; missing: number[] };

/**
 * POST /ulink/key/(key)/upload (no account): the parts of /file/upload, whole or chunked, into
 * the link's folder, never overwriting (an existing name gets a numbered one). The upload runs
 * as the link's owner: their write right on the folder and their quota apply, exactly as if they
 * had uploaded it. A protected link needs its access token. Once a file is complete (the whole
 * upload, or the chunk that completes it) the deposit is recorded with a folder event (type 5),
 * a log entry naming the visitor as a guest, and, with flag 4, one receipt mail to the owner.
 * The answer gives the size and MD5 received, not the name the file got: a numbered name would
 * tell the visitor what the folder already holds. The name and email a link asks for travel as
 * the parts `depositorName` and `depositorEmail` and are kept with the deposit.
 */
export async function depositThroughUlink(ctx: Ctx, { link, owner, folderId }: UlinkVisit, source: BodySource, base: string): Promise<DepositOutcome> {
  const asOwner: AuthedCtx = { ...ctx, actor: { user: owner, realUser: owner, sessionId: null } };
  const visitor = createHash("sha256").update(`${ctx.request.ip}\n${ctx.request.userAgent ?? ""}`).digest("hex");
  const checkFields = (raw: Readonly<Record<string, string>>) => void depositorOf(raw, link.depositor);
  const outcome = await uploadFile(asOwner, source, { meta: false, mode: "light", deposit: { folderId, scope: `ulink:${link.id}:${visitor}`, ulinkId: link.id, checkFields } });
  if (outcome.kind !== "file") return outcome;
  const depositor = depositorOf(outcome.fields, link.depositor);

  const { file, version, folder } = outcome.committed;
  await ctx.db.transaction(async (tx) => {
    const [destination] = await tx.select({ name: folders.name }).from(folders).where(eq(folders.id, folder.id));
    await tx.insert(ulinkDeposits).values({ ulinkId: link.id, fileId: file.id, versionId: version.id, name: file.name, size: version.size, ip: ctx.request.ip, depositorName: depositor.depositorName ?? null, depositorEmail: depositor.depositorEmail ?? null });
    await recordEvent(tx, ctx.request, { targetType: "folder", targetId: folder.id, type: FOLDER_EVENT.dropLink, actorId: null, data: { ulink_id: link.id, file_id: file.id, name: file.name } });
    await writeLog(tx, { actor: null, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: `Dropped ${file.name} through drop link ${link.name ?? link.id}`,
      objectType: "ulink",
      objectId: link.id,
      object: file.name,
    });
    // Issue 29: every deposit reaches the owner in the app; the mail stays behind flag 4.
    await notifyUsers(tx, [owner.id], { type: "deposit", actorId: null, object: { type: "file", id: version.id, name: file.name, url: `/files/${folder.id}` } });
    if (link.flags & ULINK_FLAG.receipt) {
      await queueDepositReceipt(tx, owner, link, { name: file.name, size: version.size, folderName: destination?.name ?? "", folderId: folder.id, date: version.createdAt, depositorEmail: depositor.depositorEmail }, base);
    }
  });
  return { kind: "file", deposit: { size: version.size, hash: version.md5 } };
}

/**
 * The name and email the form gave, as the link asks for them (issue 29): ignored when it does
 * not ask, checked when given, both needed when it requires them. Throws 400 before any commit.
 */
function depositorOf(raw: Readonly<Record<string, string>>, option: DepositorOption): Partial<DepositorFields> {
  if (option === "none") return {};
  const parsed = depositorFields.safeParse({ depositorName: raw.depositorName, depositorEmail: raw.depositorEmail });
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ path: String(i.path[0] ?? "depositor"), message: i.message }));
    throw new AppError("invalid_request", "The depositor's name or email is not valid", details);
  }
  if (option === "required") {
    const missing = (["depositorName", "depositorEmail"] as const).filter((k) => !parsed.data[k]);
    if (missing.length) throw new AppError("invalid_request", "This drop link needs the depositor's name and email", missing.map((path) => ({ path, message: "required" })));
  }
  return parsed.data;
}
