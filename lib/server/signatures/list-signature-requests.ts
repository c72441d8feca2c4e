import "server-only";
import { and, count, desc, eq, ilike, inArray, isNull, ne, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureActors, signatureRequests, type SignatureRequestRow } from "@/db/schema";
import type { ListSignaturesQuery, SignatureResponse } from "@/lib/contracts/signatures";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentSignatures } from "./present-signatures";

export type SignatureListKind = "mine" | "received" | "templates";

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The WHERE of each list: my requests (not templates, not mass children), received ones, my templates. */
export function listCondition(ctx: AuthedCtx, kind: SignatureListKind, query: Pick<ListSignaturesQuery, "name" | "status">): SQL {
  const me = ctx.actor.user.id;
  const parts: (SQL | undefined)[] = [];
  if (kind === "mine") parts.push(eq(signatureRequests.userId, me), eq(signatureRequests.isTemplate, false), isNull(signatureRequests.parentId));
  if (kind === "templates") parts.push(eq(signatureRequests.userId, me), eq(signatureRequests.isTemplate, true));
  if (kind === "received") {
    parts.push(
      ne(signatureRequests.status, "draft"),
      inArray(signatureRequests.id, ctx.db.select({ id: signatureActors.signatureId }).from(signatureActors).where(eq(signatureActors.userId, me))),
    );
  }
  if (query.name) parts.push(ilike(signatureRequests.name, `%${escapeLike(query.name)}%`));
  if (query.status) parts.push(eq(signatureRequests.status, query.status));
  return and(...parts)!;
}

export async function findSignatureRows(db: DbOrTx, where: SQL, offset: number, limit: number): Promise<{ rows: SignatureRequestRow[]; total: number }> {
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(signatureRequests).where(where).orderBy(desc(signatureRequests.id)).offset(offset).limit(limit),
    db.select({ total: count() }).from(signatureRequests).where(where),
  ]);
  return { rows, total };
}

/** GET /signatures, /signatures/received, /signatures/templates: the contract's envelope, newest first. */
export async function listSignatureRequests(ctx: AuthedCtx, kind: SignatureListKind, query: ListSignaturesQuery, base: string) {
  const { rows, total } = await findSignatureRows(ctx.db, listCondition(ctx, kind, query), query.offset_start, query.nb_objects);
  let objects: SignatureResponse[];
  if (kind === "received") {
    // Each received request shows only the caller's own link.
    const mine = rows.length
      ? await ctx.db
          .select({ id: signatureActors.id, signatureId: signatureActors.signatureId })
          .from(signatureActors)
          .where(and(eq(signatureActors.userId, ctx.actor.user.id), inArray(signatureActors.signatureId, rows.map((r) => r.id))))
      : [];
    objects = await Promise.all(
      rows.map(async (r) => {
        const actorId = mine.find((m) => m.signatureId === r.id)?.id ?? 0;
        const [one] = await presentSignatures(ctx.db, [r], { base, full: query.full, viewer: { links: "own", actorId } });
        return one;
      }),
    );
  } else {
    objects = await presentSignatures(ctx.db, rows, { base, full: query.full, viewer: { links: "all" } });
  }
  return envelope(objects, query.offset_start, total);
}

