import { getDb } from "@/db";
import { connectionOptions } from "@/db/schema";
import type { ConnectionOptions } from "@/lib/server/options/connection-rules";
import { DEFAULT_OPTIONS } from "@/lib/server/options/connection-rules";
import * as optionRoute from "@/app/api/option/[targetId]/route";
import { call, type CallOptions } from "../../helpers/http";

export const at = (id: number, extra: CallOptions = {}): CallOptions => ({ path: `/api/option/${id}`, params: { targetId: String(id) }, ...extra });
export const from = (ip: string) => ({ "x-forwarded-for": ip });

export const getOptions = (token: string, id: number, ip = "127.0.0.1") => call(optionRoute.GET, at(id, { token, headers: from(ip) }));
export const putOptions = (token: string, id: number, body: unknown, ip = "127.0.0.1") =>
  call(optionRoute.PUT, at(id, { method: "PUT", token, body, headers: from(ip) }));
export const deleteOptions = (token: string, id: number, ip = "127.0.0.1") => call(optionRoute.DELETE, at(id, { method: "DELETE", token, headers: from(ip) }));

/** Writes a row straight into the table, for tests about what a row does rather than how it is set. */
export async function storeOptions(targetId: number, options: Partial<ConnectionOptions>) {
  const db = await getDb();
  const row = { ...DEFAULT_OPTIONS, ...options };
  await db.insert(connectionOptions).values({ targetId, ...row }).onConflictDoUpdate({ target: connectionOptions.targetId, set: row });
}

const pad = (n: number) => String(n).padStart(2, "0");
const hhmm = (minutes: number) => {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
};
const nowMinute = () => new Date().getUTCHours() * 60 + new Date().getUTCMinutes();

/** An hour window (GMT) that holds the present minute, wrapping midnight when it must. */
export const windowAroundNow = () => ({ hourStart: hhmm(nowMinute() - 60), hourEnd: hhmm(nowMinute() + 60) });
/** An hour window (GMT) that starts two hours from now and lasts one: it excludes the present. */
export const windowAwayFromNow = () => ({ hourStart: hhmm(nowMinute() + 120), hourEnd: hhmm(nowMinute() + 180) });

/** Every day but today (GMT); Sunday has two bits in the mask, both cleared on a Sunday. */
export function daysButToday(): number {
  const today = new Date().getUTCDay();
  return 255 & ~(1 << today) & (today === 0 ? ~128 : 255);
}
