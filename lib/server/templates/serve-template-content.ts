import "server-only";
import { Readable } from "node:stream";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { Ctx } from "../context";
import { attachmentDisposition } from "../downloads/content-disposition";
import { servedType } from "../downloads/served-type";
import { AppError } from "../errors";
import { getVisibleTemplateOrThrow } from "./template-access";
import { redeemTemplateToken } from "./template-token";

/**
 * GET /template/file/(id)/content (beyond api.md): a template's bytes, for the caller's session
 * or a template token (`?token=`). Always an attachment under a sandbox policy, whatever the type
 * (api.md, "Served types").
 */
export async function serveTemplateContent(ctx: Ctx, templateId: number, token: string | undefined): Promise<Response> {
  let template;
  if (token) template = await redeemTemplateToken(ctx.db, templateId, token);
  else if (ctx.actor) template = (await getVisibleTemplateOrThrow(ctx.db, ctx.actor.user, templateId)).template;
  else throw new AppError("unauthorized", "Authentication required: send Authorization: Bearer <token> or a template token");
  const stream = await getBlobStore().read(template.blobId);
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": servedType(template.mime),
      "Content-Length": String(template.size),
      "Content-Disposition": attachmentDisposition(template.name),
      "Content-Security-Policy": "sandbox",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-cache",
      ETag: `"${template.md5}"`,
    },
  });
}
