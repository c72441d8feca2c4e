import { noContent } from "@/lib/contracts/common";
import { optionParams, optionsResponse, updateOptionsBody } from "@/lib/contracts/options";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteOptions } from "@/lib/server/options/delete-options";
import { getOptions } from "@/lib/server/options/get-options";
import { updateOptions } from "@/lib/server/options/update-options";

export const runtime = "nodejs";

// GET /api/option/(targetId): connection options of a user (own or inherited) or a group
export const GET = route({ params: optionParams, response: optionsResponse }, ({ ctx, params }) => getOptions(ctx, params.targetId));

// PUT /api/option/(targetId): create or change the explicit options (partial)
export const PUT = route({ params: optionParams, body: updateOptionsBody, response: optionsResponse }, ({ ctx, params, body }) => updateOptions(ctx, params.targetId, body));

// DELETE /api/option/(targetId): remove the explicit options (a user falls back to their groups)
export const DELETE = route({ params: optionParams, response: noContent }, ({ ctx, params }) => deleteOptions(ctx, params.targetId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
