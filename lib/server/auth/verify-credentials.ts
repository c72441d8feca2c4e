import "server-only";
import type { DbOrTx } from "@/db";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { identityLinks, identityProviders, users, type IdentityProviderRow, type User } from "@/db/schema";
import { LDAP_TYPES } from "@/lib/contracts/identity-providers";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { signInWithDirectory } from "../identity/directory-sign-in";
import { DirectoryUnavailableError, ServiceBindError } from "../identity/ldap-client";
import { normalizeLogin } from "./login-name";
import { dummyHash, verifyPassword } from "./passwords";

export type CredentialCheck =
  | { ok: true; user: User; via: "local" | "directory" }
  /** Wrong login or password; `user` is the account aimed at when there is one (for the log). */
  | { ok: false; user: User | null; reason: string };

/**
 * The directory could not be asked: 503 with the contract's error body, never "wrong password".
 * The cause (addresses, TLS errors) goes to the audit log, not to an anonymous caller.
 */
function unavailable(provider: IdentityProviderRow, error: Error): AppError {
  const refusal = new AppError("service_unavailable", `The directory ${provider.name} cannot be reached; try again later`, { provider: String(provider.id) }, { "Retry-After": "30" });
  return Object.assign(refusal, { cause: error });
}

async function enabledDirectories(ctx: Ctx, providerId?: number) {
  return ctx.db
    .select()
    .from(identityProviders)
    .where(
      and(
        eq(identityProviders.enable, true),
        eq(identityProviders.isAuthn, true),
        inArray(identityProviders.type, [...LDAP_TYPES]),
        providerId === undefined ? undefined : eq(identityProviders.id, providerId),
      ),
    )
    .orderBy(asc(identityProviders.id));
}

/**
 * The one password check of POST /auth and the web sign-in. A local account (not `ldap`) is
 * checked against its Argon2id hash and never reaches a directory, so local accounts sign in
 * whatever state the directories are in. A directory account binds to its own provider; an
 * unknown login is looked for in each enabled directory, in creation order, and provisioned on
 * its first sign-in.
 */
export async function verifyCredentials(ctx: Ctx, input: { user: string; password: string }): Promise<CredentialCheck> {
  // The login as typed (trimmed) first, so an account whose login is not in NFKC form is still
  // found; then its normalised form, which is also what a directory is asked for (login-name.ts).
  const login = normalizeLogin(input.user);
  const local = await findAccountByLogin(ctx.db, input.user);

  if (local && !local.ldap) {
    // An account without a password (single sign-on, not yet set) takes as long to refuse as any other.
    const ok = await verifyPassword(local.passwordHash ?? (await dummyHash()), input.password);
    return ok && local.passwordHash ? { ok: true, user: local, via: "local" } : { ok: false, user: local, reason: "Wrong password" };
  }
  const db = ctx.db;

  if (local) {
    const [link] = await ctx.db.select().from(identityLinks).where(eq(identityLinks.userId, local.id)).limit(1);
    const [provider] = link ? await enabledDirectories(ctx, link.providerId) : [];
    if (!link || !provider) {
      await verifyPassword(await dummyHash(), "x");
      return { ok: false, user: local, reason: "The account's directory is disabled or gone" };
    }
    const result = await ask(provider, () => signInWithDirectory(db, provider, { identifier: local.login, password: input.password, byLogin: true, expectedExternalId: link.externalId }, ctx.request));
    if (result.status === "ok") return { ok: true, user: result.user, via: "directory" };
    return { ok: false, user: local, reason: result.status === "unknown" ? "The entry is no longer in the directory" : result.reason };
  }

  let down: AppError | null = null;
  for (const provider of await enabledDirectories(ctx)) {
    let result;
    try {
      result = await ask(provider, () => signInWithDirectory(db, provider, { identifier: login, password: input.password }, ctx.request));
    } catch (error) {
      // Another directory may still know the person; the outage matters only if none does.
      if (error instanceof AppError && error.code === "service_unavailable") {
        down ??= error;
        continue;
      }
      throw error;
    }
    if (result.status === "ok") return { ok: true, user: result.user, via: "directory" };
    if (result.status === "refused") return { ok: false, user: null, reason: `${provider.name}: ${result.reason}` };
  }
  if (down) throw down;
  await verifyPassword(await dummyHash(), "x");
  return { ok: false, user: null, reason: "Unknown login" };
}

/** The live account a typed login names: as typed (trimmed) first, then its normalised form. */
export async function findAccountByLogin(db: DbOrTx, typedLogin: string): Promise<User | undefined> {
  const typed = typedLogin.trim();
  const login = normalizeLogin(typedLogin);
  const [local] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.login}) IN (lower(${typed}), lower(${login}))`, isNull(users.deletedAt)))
    .orderBy(sql`lower(${users.login}) = lower(${typed}) DESC`)
    .limit(1);
  return local;
}

async function ask<T>(provider: IdentityProviderRow, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof DirectoryUnavailableError || error instanceof ServiceBindError) throw unavailable(provider, error);
    throw error;
  }
}
