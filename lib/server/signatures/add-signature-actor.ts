import "server-only";
import { and, eq, isNull, max } from "drizzle-orm";
import { signatureActors, users } from "@/db/schema";
import type { AddActorInput, SignatureActorResponse } from "@/lib/contracts/signatures";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { presentActor } from "./present-signatures";
import { getEditableDraftOrThrow, touch } from "./signature-access";
import { assertLevelSupported } from "./signature-rules";

/**
 * POST /signatures/(id)/actors (api.md): a signer, approver or follower, by `infos` or as a
 * platform user (`id`; `infos` then defaults to their account). Drafts only. Followers carry
 * neither phone nor level. 201 Signature actor.
 */
export async function addSignatureActor(ctx: AuthedCtx, signatureId: number, input: AddActorInput, base: string): Promise<SignatureActorResponse> {
  assertLevelSupported(input.signature_level);
  return ctx.db.transaction(async (tx) => {
    const request = await getEditableDraftOrThrow(tx, ctx.actor.user, signatureId, "add an actor");
    let account: { id: number; email: string; firstname: string; lastname: string; language: string; phone: string } | undefined;
    if (input.id !== undefined) {
      [account] = await tx
        .select({ id: users.id, email: users.email, firstname: users.firstname, lastname: users.lastname, language: users.language, phone: users.phone })
        .from(users)
        .where(and(eq(users.id, input.id), isNull(users.deletedAt)))
        .limit(1);
      if (!account) throw new AppError("invalid_request", "No such user", [{ path: "id", message: "Unknown user" }]);
    }
    const infos = input.infos ?? {};
    const email = infos.email ?? account?.email;
    const firstName = infos.first_name ?? account?.firstname;
    const lastName = infos.last_name ?? account?.lastname;
    const missing = [!email && "infos.email", !firstName && "infos.first_name", !lastName && "infos.last_name"].filter(Boolean) as string[];
    if (missing.length) throw new AppError("invalid_request", `Invalid request: ${missing.join(", ")}`, missing.map((path) => ({ path, message: "Required" })));
    const isFollower = input.type === "follower";
    if (isFollower && (infos.phone || input.signature_level)) {
      throw new AppError("invalid_request", "A follower has neither phone nor signature level", [{ path: infos.phone ? "infos.phone" : "signature_level", message: "Not for followers" }]);
    }
    const [{ last }] = await tx.select({ last: max(signatureActors.position) }).from(signatureActors).where(eq(signatureActors.signatureId, request.id));
    const [actor] = await tx
      .insert(signatureActors)
      .values({
        signatureId: request.id,
        userId: account?.id ?? null,
        type: input.type,
        position: input.position ?? (last ?? 0) + 1,
        email: email!.trim().toLowerCase(),
        firstName: firstName!,
        lastName: lastName!,
        locale: infos.locale ?? (account && account.language !== "auto" ? account.language : null),
        phone: isFollower ? null : (infos.phone ?? null),
        signatureLevel: isFollower ? null : (input.signature_level ?? null),
      })
      .returning();
    await touch(tx, request.id);
    return presentActor(actor, { base, withLink: true });
  });
}
