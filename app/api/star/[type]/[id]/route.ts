import { noContent } from "@/lib/contracts/common";
import { starParams } from "@/lib/contracts/stars";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { starItem } from "@/lib/server/stars/star-item";
import { unstarItem } from "@/lib/server/stars/unstar-item";

export const runtime = "nodejs";

// PUT /api/star/(file|folder)/(id): star a file (any version id) or a folder the caller may browse (204, idempotent)
export const PUT = route({ params: starParams, response: noContent }, ({ ctx, params }) => starItem(ctx, params.type, params.id));

// DELETE /api/star/(file|folder)/(id): take the caller's star off (204, idempotent)
export const DELETE = route({ params: starParams, response: noContent }, ({ ctx, params }) => unstarItem(ctx, params.type, params.id));

export const { GET, PATCH, POST } = otherMethods({ PUT, DELETE });
