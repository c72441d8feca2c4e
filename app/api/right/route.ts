import { createRightBody, recursiveQuery, rightResponse } from "@/lib/contracts/rights";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { createRight } from "@/lib/server/rights/create-right";

export const runtime = "nodejs";

// POST /api/right: give a user or group a right on a folder (`recursive`: on its subfolders too)
export const POST = route({ query: recursiveQuery, body: createRightBody, response: { 201: rightResponse } }, async ({ ctx, query, body }) =>
  created(await createRight(ctx, body, { recursive: query.recursive })),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
