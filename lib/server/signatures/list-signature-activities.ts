import "server-only";
import { asc, count, eq } from "drizzle-orm";
import { signatureActivities, signatureActors } from "@/db/schema";
import type { SignatureActivityResponse } from "@/lib/contracts/signatures";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { activityUserNames, presentActivity } from "./present-signatures";
import { getOwnSignatureOrThrow } from "./signature-access";

/** GET /signatures/(id)/activities: the request's history, oldest first, in the contract's envelope (initiator and administrators). */
export async function listSignatureActivities(ctx: AuthedCtx, signatureId: number, paging: { offset_start: number; nb_objects: number }, base: string) {
  const request = await getOwnSignatureOrThrow(ctx.db, ctx.actor.user, signatureId);
  const where = eq(signatureActivities.signatureId, request.id);
  const [rows, [{ total }], actors] = await Promise.all([
    ctx.db.select().from(signatureActivities).where(where).orderBy(asc(signatureActivities.id)).offset(paging.offset_start).limit(paging.nb_objects),
    ctx.db.select({ total: count() }).from(signatureActivities).where(where),
    ctx.db.select().from(signatureActors).where(eq(signatureActors.signatureId, request.id)),
  ]);
  const byId = new Map(actors.map((a) => [a.id, a]));
  const names = await activityUserNames(ctx.db, rows);
  const objects: SignatureActivityResponse[] = await Promise.all(rows.map((r) => presentActivity(r, byId, base, names)));
  return envelope(objects, paging.offset_start, total);
}
