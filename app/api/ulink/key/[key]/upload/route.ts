import { ulinkKeyParams } from "@/lib/contracts/ulinks";
import { drainingBody } from "@/lib/server/http/drain-body";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { depositThroughUlink } from "@/lib/server/ulinks/deposit-through-ulink";

export const runtime = "nodejs";

// POST /api/ulink/key/(key)/upload (no token; access_token when protected): deposit a file, whole (201) or chunked ("OK", [{missing}], then 201)
// A body refused before it is read (no session, unknown link...) is drained, never left half-read.
export const POST = drainingBody(
  route({ auth: "none", params: ulinkKeyParams }, async ({ ctx, params, req }) => {
    const outcome = await depositThroughUlink(ctx, req, params.key, appUrl(req));
    if (outcome.kind === "file") return created(outcome.deposit);
    if (outcome.kind === "missing") return outcome.missing.map((missing) => ({ missing }));
    return new Response("OK", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
