import "server-only";
import { asc, count } from "drizzle-orm";
import { identityProviders } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { assertIdentityAdmin } from "./get-identity-provider";
import { presentIdentityProvider } from "./provider-config";

/** GET /identity/providers: every provider, in creation order (the order sign-in tries directories in). */
export async function listIdentityProviders(ctx: AuthedCtx, paging: { offset_start: number; nb_objects: number }) {
  assertIdentityAdmin(ctx);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(identityProviders).orderBy(asc(identityProviders.id)).offset(paging.offset_start).limit(paging.nb_objects),
    ctx.db.select({ total: count() }).from(identityProviders),
  ]);
  return envelope(await Promise.all(rows.map(presentIdentityProvider)), paging.offset_start, total);
}
