import "server-only";
import type { DbOrTx } from "@/db";
import type { User } from "@/db/schema";

export type RequestInfo = { ip: string; userAgent: string | null; requestId?: string };

/** The caller of an operation. `realUser` differs from `user` when acting through AsId. */
export type Actor = { user: User; realUser: User; sessionId: number | null };

/** What every service receives first. `db` may be a transaction or a test database. */
export type Ctx = {
  db: DbOrTx;
  actor: Actor | null;
  request: RequestInfo;
};

export type AuthedCtx = Ctx & { actor: Actor };

/** The shape writeLog wants: the effective user, or null for anonymous callers. */
export const logWho = (ctx: Ctx, db?: DbOrTx) => ({
  actor: ctx.actor?.user ?? null,
  request: ctx.request,
  db: db ?? ctx.db,
});

export const ROLE_NAMES = { 1: "external", 2: "user", 3: "administrator", 4: "manager" } as const;
export const isAdmin = (u: Pick<User, "role">) => u.role === 3;
export const isManager = (u: Pick<User, "role">) => u.role === 4;
