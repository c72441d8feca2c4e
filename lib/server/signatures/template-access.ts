import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureRequests, type SignatureRequestRow, type User } from "@/db/schema";
import { AppError } from "../errors";

/**
 * One of the caller's own templates (issue 31). Owner-only, administrators included: anyone
 * else's template, a request that is no template, or an unknown id are the same 404.
 */
export async function getOwnTemplateOrThrow(db: DbOrTx, user: Pick<User, "id">, templateId: number, options: { forUpdate?: boolean } = {}): Promise<SignatureRequestRow> {
  const query = db
    .select()
    .from(signatureRequests)
    .where(and(eq(signatureRequests.id, templateId), eq(signatureRequests.userId, user.id), eq(signatureRequests.isTemplate, true)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row) throw new AppError("template_not_found", "Template not found");
  return row;
}
