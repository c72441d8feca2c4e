import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { users, workflowInstances, workflowObjects, workflowParticipants, type User, type WorkflowParticipantRow } from "@/db/schema";
import type { CreateWorkflowInput, WorkflowInstanceResponse } from "@/lib/contracts/workflows";
import { refusalReason } from "../auth/account-state";
import { displayName, writeLog } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFileOrThrow, type FileAccess } from "../files/get-file";
import { recordWorkflowEvent } from "./close-workflow-instance";
import { presentWorkflowInstances } from "./present-workflow-instances";
import { startWorkflowSignature } from "./workflow-signature";
import { initialState } from "./workflow-states";
import { firstAddress, queueInvitationMails } from "./workflow-mails";
import { newParticipantSecret } from "./workflow-tokens";

type NewParticipant = { role: "interne" | "externe" | "signer"; userId: number | null; email: string; name: string | null };

/**
 * POST /workflow/instance (api.md): an instance of flux 1 to 5 on files the caller may read and
 * download. Sending documents to outside addresses, or a copy link to everyone (`send_copy`),
 * is sharing: it also needs the share right on each file's folder. Validators (flux 1, 4) and the
 * flux 2 signer each get a mail with their own link `BASE_URL/workflow/<token>`; flux 3 and 5 start
 * a signature request of our own signer, which mails its signers. 201 Workflow instance.
 */
export async function createWorkflowInstance(ctx: AuthedCtx, input: CreateWorkflowInput, base: string): Promise<WorkflowInstanceResponse> {
  const user = ctx.actor.user;
  const flux = input.flux.id;
  const p = input.properties;
  const sendCopy = p.send_copy ?? false;
  const config = await getPlatformConfig(ctx.db);
  if (sendCopy && !config.features.direct_link) throw new AppError("forbidden", "A copy link needs link sharing, which is disabled on this platform");

  const { files, byIndex } = await resolveFiles(ctx.db, user, p.objects.map((o) => o.id));
  const participants = await resolveParticipants(ctx.db, input);
  const sharesOutside = sendCopy || participants.some((x) => x.role !== "interne") || flux === 3 || flux === 5;
  if (sharesOutside) {
    for (const [i, f] of files.entries()) {
      if (!f.rights.share) throw new AppError("forbidden", `Sending "${f.file.name}" to other people needs the share right in its folder`, [{ path: `properties.objects.${i}.id`, message: "share right missing" }]);
    }
  }

  const properties = storedProperties(input, files);
  const instanceId = await ctx.db.transaction(async (tx) => {
    const [instance] = await tx
      .insert(workflowInstances)
      .values({ flux, ownerId: user.id, state: initialState(flux), properties, comment: p.comment || null, sendCopy })
      .returning();
    if (files.length > 0) {
      await tx.insert(workflowObjects).values(files.map((f, position) => ({ instanceId: instance.id, fileId: f.file.id, versionId: f.version.id, position })));
    }
    const invited: { participant: WorkflowParticipantRow; secret: string }[] = [];
    for (const [position, who] of participants.entries()) {
      const { secret, hash } = newParticipantSecret();
      const [participant] = await tx.insert(workflowParticipants).values({ instanceId: instance.id, ...who, tokenHash: hash, position }).returning();
      invited.push({ participant, secret });
    }
    await recordWorkflowEvent(tx, ctx.request, { instanceId: instance.id, userId: user.id, action: "created", comment: instance.comment });
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: `Workflow (flux ${flux}) started on ${files.map((f) => f.file.name).join(", ") || "no file"}`,
      objectType: "workflow",
      objectId: instance.id,
      object: files.map((f) => f.file.name).join(", ").slice(0, 255),
    });
    await queueInvitationMails(tx, user, instance, invited, files.map((f) => f.file.name), base);
    if (flux === 3 || flux === 5) await startWorkflowSignature({ ...ctx, db: tx }, instance, input, byIndex, base);
    return instance.id;
  });
  const [row] = await ctx.db.select().from(workflowInstances).where(eq(workflowInstances.id, instanceId));
  return (await presentWorkflowInstances(ctx.db, [row], { kind: "owner" }))[0];
}

/**
 * The files named by `objects` (contract File ids, that is version ids): the caller must be able
 * to read and download them (403 otherwise, 404 when gone). `files` holds each file once,
 * `byIndex` follows `objects` (signature fields name their document by that index).
 */
async function resolveFiles(db: DbOrTx, user: User, versionIds: number[]): Promise<{ files: FileAccess[]; byIndex: FileAccess[] }> {
  const files: FileAccess[] = [];
  const byIndex: FileAccess[] = [];
  for (const [i, versionId] of versionIds.entries()) {
    const access = await getFileOrThrow(db, user, versionId, "read");
    if (!access.rights.download) throw new AppError("forbidden", `You lack the download right on "${access.file.name}"`, [{ path: `properties.objects.${i}.id`, message: "download right missing" }]);
    byIndex.push(access);
    if (!files.some((f) => f.file.id === access.file.id)) files.push(access);
  }
  return { files, byIndex };
}

/**
 * Validators (flux 1, 4) or the flux 2 signer. An internal validator is a user who may sign in,
 * named by id or by address (both must agree when given); the same address is asked once.
 */
async function resolveParticipants(db: DbOrTx, input: CreateWorkflowInput): Promise<NewParticipant[]> {
  const flux = input.flux.id;
  const list: NewParticipant[] = [];
  const seen = new Set<string>();
  const add = (who: NewParticipant) => {
    const key = who.email.toLowerCase();
    if (seen.has(key) || (who.userId !== null && list.some((o) => o.userId === who.userId))) return;
    seen.add(key);
    list.push(who);
  };
  if (flux === 1 || flux === 4) {
    const validation = input.properties.validation;
    for (const [i, v] of (validation?.interne ?? []).entries()) {
      const found = await findInternalUser(db, v.id, v.email, `properties.validation.interne.${i}`);
      add({ role: "interne", userId: found.id, email: firstAddress(found.email), name: v.name || displayName(found) });
    }
    for (const v of validation?.externe ?? []) add({ role: "externe", userId: null, email: v.email, name: v.name || null });
  }
  if (flux === 2) {
    const [s] = input.properties.signatures ?? [];
    const found = s.id !== undefined ? await findInternalUser(db, s.id, undefined, "properties.signatures.0") : null;
    const name = [s.firstname, s.lastname].filter(Boolean).join(" ") || (found ? displayName(found) : null);
    add({ role: "signer", userId: found?.id ?? null, email: s.email, name });
  }
  return list;
}

async function findInternalUser(db: DbOrTx, userId: number | undefined, email: string | undefined, path: string): Promise<User> {
  const invalid = (message: string) => new AppError("invalid_request", message, [{ path, message }]);
  let found: User[];
  if (userId !== undefined) {
    found = await db.select().from(users).where(and(eq(users.id, userId), isNull(users.deletedAt))).limit(1);
    if (found.length === 0) throw invalid("No user has this id");
    if (email && !addressesOf(found[0].email).includes(email.toLowerCase())) throw invalid("This user has another email address");
  } else {
    const wanted = email!.toLowerCase();
    // users.email may hold several comma-separated addresses.
    found = await db
      .select()
      .from(users)
      .where(and(isNull(users.deletedAt), sql`${wanted} = ANY (SELECT lower(trim(a)) FROM unnest(string_to_array(${users.email}, ',')) AS a)`))
      .limit(2);
    if (found.length === 0) throw invalid("No user has this email address: name them as an external validator");
    if (found.length > 1) throw invalid("Several users have this email address: name the validator by id");
  }
  const user = found[0];
  if (refusalReason(user)) throw invalid("This user cannot sign in");
  if (!user.email.trim()) throw invalid("This user has no email address");
  return user;
}

const addressesOf = (email: string) => email.split(",").map((a) => a.trim().toLowerCase());

/** The creation's properties as kept and shown again: what was asked, with ids normalised. */
function storedProperties(input: CreateWorkflowInput, files: FileAccess[]): Record<string, unknown> {
  const p = input.properties;
  const stored: Record<string, unknown> = { objects: files.map((f) => ({ type: "file", id: f.version.id })), send_copy: p.send_copy ?? false };
  if (p.validation) stored.validation = p.validation;
  if (p.signatures) stored.signatures = p.signatures;
  if (p.signature_fields) stored.signature_fields = p.signature_fields;
  if (p.comment) stored.comment = p.comment;
  return stored;
}
