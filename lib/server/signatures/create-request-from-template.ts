import "server-only";
import { eq } from "drizzle-orm";
import { signatureActors } from "@/db/schema";
import type { SignatureResponse, UseTemplateInput } from "@/lib/contracts/signatures";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { resolveActorPerson } from "./add-signature-actor";
import { copyContent, insertDraft } from "./create-signature-request";
import { bad } from "./field-rules";
import { reloadAndPresent } from "./present-signatures";
import { assertFutureDate } from "./signature-rules";
import { getOwnTemplateOrThrow } from "./template-access";

/**
 * POST /signature-template/(id)/use (issue 31): a new draft with the template's settings,
 * documents (the template's bytes) and fields; each role (a template actor) named in `roles` is
 * given to that person, the others keep the template's. The fields follow their role.
 */
export async function createRequestFromTemplate(ctx: AuthedCtx, templateId: number, input: UseTemplateInput, base: string): Promise<SignatureResponse> {
  const user = ctx.actor.user;
  assertFutureDate(input.expiration_date);
  const roles = new Map(input.roles.map((r, i) => [r.role, { ...r, index: i }]));
  if (roles.size !== input.roles.length) throw bad("roles", "A role is given twice");
  return ctx.db.transaction(async (tx) => {
    const template = await getOwnTemplateOrThrow(tx, user, templateId);
    const row = await insertDraft(tx, user.id, { name: input.name ?? template.name, expiration_date: input.expiration_date, subject: input.subject, message: input.message }, template);
    const actorMap = await copyContent(tx, template.id, row.id);
    for (const [role, given] of roles) {
      const actorId = actorMap.get(role);
      if (actorId === undefined) throw bad(`roles.${given.index}.role`, "Not a role of this template");
      const person = await resolveActorPerson(tx, given.id, given.infos ?? {});
      await tx
        .update(signatureActors)
        .set({ ...person, phone: given.infos?.phone ?? null })
        .where(eq(signatureActors.id, actorId));
    }
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_INSERT", message: `Created the signature request ${row.name} from the template ${template.name}`, objectType: "signature", objectId: row.id, object: row.name });
    return reloadAndPresent(tx, row.id, { base, viewer: { links: "all" } });
  });
}
