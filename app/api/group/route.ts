import { createGroupBody, groupQuery, groupResponse } from "@/lib/contracts/groups";
import { createGroup } from "@/lib/server/groups/create-group";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/group: create a group with its members (administrators)
export const POST = route({ query: groupQuery, body: createGroupBody, response: { 201: groupResponse } }, async ({ ctx, query, body }) =>
  created(await createGroup(ctx, body, { full: query.full })),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
