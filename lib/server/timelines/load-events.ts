import "server-only";
import { and, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { events } from "@/db/schema";
import type { TimelineEventResponse } from "@/lib/contracts/timelines";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";

/** One event as stored, before timelines nest replies and group downloads (the contract's Event). */
export type EventJson = Omit<TimelineEventResponse, "responses" | "subtype" | "extended">;

export type EventRow = typeof events.$inferSelect;

/** Timeline events of one target, newest first, capped (a timeline is read, not paged). */
export async function loadEvents(db: DbOrTx, targetType: "file" | "folder", targetId: number, where?: SQL, limit = 500): Promise<EventRow[]> {
  return db
    .select()
    .from(events)
    .where(and(eq(events.targetType, targetType), eq(events.targetId, targetId), where))
    .orderBy(desc(events.date), desc(events.id))
    .limit(limit);
}

/** The contract's event fields: id, type, date, geo, env, owner, owner_id, data. */
export async function presentEvents(db: DbOrTx, rows: EventRow[]): Promise<EventJson[]> {
  const names = await loadOwnerNames(db, rows.map((e) => e.actorId).filter((id): id is number => id !== null));
  return rows.map((e) => ({
    id: e.id,
    type: e.type,
    date: iso(e.date),
    geo: e.geo ?? null,
    env: e.env ?? null,
    owner: e.actorId === null ? "guest" : (names.get(e.actorId) ?? ""),
    owner_id: e.actorId === null ? "0" : String(e.actorId),
    data: e.data ?? null,
  }));
}

export const eventsOfVersions = (versionIds: number[]) => inArray(events.versionId, versionIds);
