import { templateTokenParams } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { createTemplateToken } from "@/lib/server/shares/template-token";

export const runtime = "nodejs";

// POST /api/token/template/(id)/(type): token for a file template (templates do not exist yet: 404)
export const POST = route({ params: templateTokenParams }, ({ ctx, params }) => createTemplateToken(ctx, params.id));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
