import { visitBody, visitResponse } from "@/lib/contracts/engagement";
import { shareKeyParams } from "@/lib/contracts/shares";
import { startVisit } from "@/lib/server/engagement/visits/start-visit";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/share/key/(key)/visits (visitor's access token): the visitor opens a document of the link → 201 {visit_id}
export const POST = route({ auth: "link", link: { kind: "share" }, params: shareKeyParams, body: visitBody, response: { 201: visitResponse } }, async ({ ctx, body }) => created(await startVisit(ctx, body.file_id)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
