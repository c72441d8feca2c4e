import "server-only";
import { eq } from "drizzle-orm";
import { signatureRequests } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { assertStatus, getOwnSignatureOrThrow } from "./signature-access";

/** DELETE /signatures/(id): drafts (and templates) only; a request under way is cancelled instead (409 signature_state). 204. */
export async function deleteSignatureRequest(ctx: AuthedCtx, signatureId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const request = await getOwnSignatureOrThrow(tx, user, signatureId, { forUpdate: true });
    assertStatus(request, ["draft"], "delete it (cancel it instead)");
    await tx.delete(signatureRequests).where(eq(signatureRequests.id, request.id));
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_DELETE", message: `Deleted the signature request ${request.name}`, objectType: "signature", objectId: request.id, object: request.name });
  });
}
