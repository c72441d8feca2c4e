import { visitorBody, visitorResponse } from "@/lib/contracts/engagement";
import { shareKeyParams } from "@/lib/contracts/shares";
import { matchLanguage } from "@/lib/i18n/languages";
import { enterShareVisitor } from "@/lib/server/engagement/gate/enter-share-visitor";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";

export const runtime = "nodejs";

// POST /api/share/key/(key)/visitor (no account; the link's access token when it is protected): the gate passed → {access_token}; 202 {code_sent} when a code was mailed
export const POST = route({ auth: "link", link: { kind: "share", beforeVisitor: true }, params: shareKeyParams, body: visitorBody, response: visitorResponse }, async ({ ctx, body, req }) => {
  const language = matchLanguage((req.headers.get("accept-language") ?? "").split(",").map((tag) => tag.split(";")[0]));
  const { status, ...answer } = await enterShareVisitor(ctx, ctx.link, body, { base: appUrl(req), language });
  return Response.json(answer, { status, headers: { "Cache-Control": "no-store" } });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
