import "server-only";
import { and, eq, gt, lt } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { templateTokens, users, type FileTemplate } from "@/db/schema";
import { accountRefusal } from "../auth/account-state";
import { hashToken, newToken } from "../auth/tokens";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { FILE_TOKEN_TTL_MS } from "../tokens/create-file-token";
import { getVisibleTemplateOrThrow } from "./template-access";

export type TemplateTokenType = "preview" | "download";

/**
 * POST /token/template/(id)/(type): a short-lived token (15 minutes, hashed at rest) for the
 * content of a template the caller sees, for GET /template/file/(id)/content?token= (an <iframe>
 * or a link without the caller's session). 404 template_not_found for a template they do not see.
 */
export async function createTemplateToken(ctx: AuthedCtx, templateId: number, type: TemplateTokenType): Promise<{ token: string }> {
  const user = ctx.actor.user;
  const { template } = await getVisibleTemplateOrThrow(ctx.db, user, templateId);
  const token = newToken();
  await ctx.db.transaction(async (tx) => {
    await tx.delete(templateTokens).where(and(eq(templateTokens.userId, user.id), lt(templateTokens.expiresAt, new Date())));
    await tx.insert(templateTokens).values({ tokenHash: hashToken(token), templateId: template.id, userId: user.id, type, expiresAt: new Date(Date.now() + FILE_TOKEN_TTL_MS) });
  });
  return { token };
}

/** The template a token opens: still unexpired, its user still allowed in, the template still visible to them; else 403 (404 when it is gone). */
export async function redeemTemplateToken(db: DbOrTx, templateId: number, token: string): Promise<FileTemplate> {
  const [row] = await db
    .select({ token: templateTokens, user: users })
    .from(templateTokens)
    .innerJoin(users, eq(users.id, templateTokens.userId))
    .where(and(eq(templateTokens.tokenHash, hashToken(token)), gt(templateTokens.expiresAt, new Date())))
    .limit(1);
  if (!row || accountRefusal(row.user) || row.token.templateId !== templateId) throw new AppError("forbidden", "This template token is invalid or has expired; ask for a new one");
  return (await getVisibleTemplateOrThrow(db, row.user, templateId)).template;
}
