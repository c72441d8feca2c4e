import "server-only";
import type { DbOrTx } from "@/db";
import { logs } from "@/db/schema";
import type { LogObjectType, LogType } from "@/lib/contracts/logs";
import type { RequestInfo } from "../context";

export type { LogType };

export type LogInput = {
  type: LogType;
  message: string;
  ok?: boolean;
  /** A new kind of object needs its place in LOG_OBJECT_TYPES and its words in the catalogues. */
  objectType?: LogObjectType;
  objectId?: string | number;
  object?: string;
  /** Overrides the actor (for example a failed login names the account it aimed at). */
  user?: { id: number | null; name: string };
};

type LogActor = { id: number; login: string; firstname: string; lastname: string } | null;

/** Writes the contract's Log entry; call it inside the transaction of the change it records. */
export async function writeLog(db: DbOrTx, who: { actor: LogActor; request: RequestInfo }, input: LogInput) {
  const actor = who.actor;
  const user = input.user ?? (actor ? { id: actor.id, name: displayName(actor) } : { id: null, name: "guest" });
  await db.insert(logs).values({
    userId: user.id,
    userName: user.name,
    message: input.message,
    ip: who.request.ip,
    userAgent: who.request.userAgent,
    type: input.type,
    statut: input.ok === false ? "ADMLLOG_ERROR" : "ADMLLOG_OK",
    objectType: input.objectType,
    objectId: input.objectId === undefined ? null : String(input.objectId),
    object: input.object,
  });
}

export function displayName(u: { login: string; firstname: string; lastname: string }): string {
  const full = `${u.firstname} ${u.lastname}`.trim();
  return full || u.login;
}
