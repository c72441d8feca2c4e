import "server-only";
import type { AuthedCtx } from "../context";
import { findCompanyRoots, findPrivateRoot } from "./find-spaces";

/** GET /roots: the private space and the company folders the caller may browse, as {id, name, type}. */
export async function listRoots(ctx: AuthedCtx) {
  const user = ctx.actor.user;
  const [own, company] = await Promise.all([findPrivateRoot(ctx.db, user), findCompanyRoots(ctx.db, user)]);
  return [
    ...(own ? [{ id: own.folder.id, name: own.folder.name, type: "private" as const }] : []),
    ...company.map((c) => ({ id: c.folder.id, name: c.folder.name, type: "company" as const })),
  ];
}
