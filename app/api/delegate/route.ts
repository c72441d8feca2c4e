import { createDelegateBody, delegateResponse } from "@/lib/contracts/delegates";
import { createDelegate } from "@/lib/server/delegates/create-delegate";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/delegate: make a user a manager of a group (obsolete delegates; administrators)
export const POST = route({ auth: "admin", body: createDelegateBody, response: { 201: delegateResponse } }, async ({ ctx, body }) => created(await createDelegate(ctx, body)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
