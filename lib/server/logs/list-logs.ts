import "server-only";
import { and, count, desc, eq, gte, inArray, isNull, lte, or, type SQL } from "drizzle-orm";
import { logs } from "@/db/schema";
import { GUEST_USER_ID, type ListLogsQuery } from "@/lib/contracts/logs";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden } from "../errors";
import { envelope } from "../present/envelope";
import { serializeLog } from "./serialize-log";

/** GET /logs: administrators read the audit log, newest first, filtered and paged. */
export async function listLogs(ctx: AuthedCtx, query: ListLogsQuery) {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  const where = and(...filtersOf(query));
  const [page, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(logs)
      .where(where)
      .orderBy(desc(logs.date), desc(logs.id))
      .offset(query.offset_start)
      .limit(query.nb_objects),
    ctx.db.select({ total: count() }).from(logs).where(where),
  ]);
  return envelope(page.map(serializeLog), query.offset_start, Number(total));
}

function filtersOf(query: ListLogsQuery): SQL[] {
  const filters: SQL[] = [];
  if (query.type) {
    const types = query.type.split(",").map((t) => t.trim()).filter(Boolean);
    filters.push(types.length === 1 ? eq(logs.type, types[0]) : inArray(logs.type, types));
  }
  if (query.statut) filters.push(eq(logs.statut, query.statut));
  if (query.user_id !== undefined) {
    const isGuest = (who: string | number) => who === GUEST_USER_ID || who === "guest";
    const ids = [...new Set(query.user_id.filter((who) => !isGuest(who)).map(Number))];
    const people: SQL[] = [];
    if (query.user_id.some(isGuest)) people.push(isNull(logs.userId));
    if (ids.length) people.push(ids.length === 1 ? eq(logs.userId, ids[0]) : inArray(logs.userId, ids));
    filters.push(people.length === 1 ? people[0] : or(...people)!);
  }
  if (query.object_type) filters.push(eq(logs.objectType, query.object_type));
  if (query.object_id) filters.push(eq(logs.objectId, query.object_id));
  if (query.date_start) filters.push(gte(logs.date, query.date_start));
  if (query.date_end) filters.push(lte(logs.date, query.date_end));
  return filters;
}
