import { noContent } from "@/lib/contracts/common";
import { recursiveQuery, rightParams, rightResponse, updateRightBody } from "@/lib/contracts/rights";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteRight } from "@/lib/server/rights/delete-right";
import { getRight } from "@/lib/server/rights/get-right";
import { updateRight } from "@/lib/server/rights/update-right";

export const runtime = "nodejs";

// GET /api/right/(rightId): read a right
export const GET = route({ params: rightParams, response: rightResponse }, ({ ctx, params }) => getRight(ctx, params.rightId));

// PUT /api/right/(rightId): change some flags (`recursive`: on the subfolders too)
export const PUT = route({ params: rightParams, query: recursiveQuery, body: updateRightBody, response: rightResponse }, ({ ctx, params, query, body }) =>
  updateRight(ctx, params.rightId, body, { recursive: query.recursive }),
);

// DELETE /api/right/(rightId): remove a right (`recursive`: the target's rights on the subfolders too)
export const DELETE = route({ params: rightParams, query: recursiveQuery, response: noContent }, ({ ctx, params, query }) => deleteRight(ctx, params.rightId, { recursive: query.recursive }));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
