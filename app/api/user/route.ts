import { alertQuery, createUserBody, userResponse } from "@/lib/contracts/users";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { createUser } from "@/lib/server/users/create-user";

export const runtime = "nodejs";

// POST /api/user: create a user (`alert` mails the login and password)
export const POST = route({ query: alertQuery, body: createUserBody, response: { 201: userResponse } }, async ({ ctx, query, body }) =>
  created(await createUser(ctx, body, { alert: query.alert })),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
