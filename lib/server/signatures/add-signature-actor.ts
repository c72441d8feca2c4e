import "server-only";
import { and, eq, isNull, max } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureActors, users } from "@/db/schema";
import type { AddActorInput, SignatureActorResponse } from "@/lib/contracts/signatures";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { presentActor } from "./present-signatures";
import { getEditableDraftOrThrow, touch } from "./signature-access";
import { assertLevelSupported } from "./signature-rules";

type Infos = NonNullable<AddActorInput["infos"]>;

/** Who an actor is: a platform user (`id`, whose account fills what `infos` leaves out) or `infos` alone (400 naming what is missing). */
export async function resolveActorPerson(tx: DbOrTx, userId: number | undefined, infos: Infos) {
  let account: { id: number; email: string; firstname: string; lastname: string; language: string } | undefined;
  if (userId !== undefined) {
    [account] = await tx
      .select({ id: users.id, email: users.email, firstname: users.firstname, lastname: users.lastname, language: users.language })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .limit(1);
    if (!account) throw new AppError("invalid_request", "No such user", [{ path: "id", message: "Unknown user" }]);
  }
  const email = infos.email ?? account?.email;
  const firstName = infos.first_name ?? account?.firstname;
  const lastName = infos.last_name ?? account?.lastname;
  const missing = [!email && "infos.email", !firstName && "infos.first_name", !lastName && "infos.last_name"].filter(Boolean) as string[];
  if (missing.length) throw new AppError("invalid_request", `Invalid request: ${missing.join(", ")}`, missing.map((path) => ({ path, message: "Required" })));
  return {
    userId: account?.id ?? null,
    email: email!.trim().toLowerCase(),
    firstName: firstName!,
    lastName: lastName!,
    locale: infos.locale ?? (account && account.language !== "auto" ? account.language : null),
  };
}

/**
 * POST /signatures/(id)/actors (api.md): a signer, approver or follower, by `infos` or as a
 * platform user (`id`; `infos` then defaults to their account). Drafts only. Followers carry
 * neither phone nor level. 201 Signature actor.
 */
export async function addSignatureActor(ctx: AuthedCtx, signatureId: number, input: AddActorInput, base: string): Promise<SignatureActorResponse> {
  assertLevelSupported(input.signature_level);
  return ctx.db.transaction(async (tx) => {
    const request = await getEditableDraftOrThrow(tx, ctx.actor.user, signatureId, "add an actor");
    const person = await resolveActorPerson(tx, input.id, input.infos ?? {});
    const infos = input.infos ?? {};
    const isFollower = input.type === "follower";
    if (isFollower && (infos.phone || input.signature_level)) {
      throw new AppError("invalid_request", "A follower has neither phone nor signature level", [{ path: infos.phone ? "infos.phone" : "signature_level", message: "Not for followers" }]);
    }
    const [{ last }] = await tx.select({ last: max(signatureActors.position) }).from(signatureActors).where(eq(signatureActors.signatureId, request.id));
    const [actor] = await tx
      .insert(signatureActors)
      .values({
        signatureId: request.id,
        ...person,
        type: input.type,
        position: input.position ?? (last ?? 0) + 1,
        phone: isFollower ? null : (infos.phone ?? null),
        signatureLevel: isFollower ? null : (input.signature_level ?? null),
      })
      .returning();
    await touch(tx, request.id);
    return presentActor(actor, { base, withLink: true });
  });
}
