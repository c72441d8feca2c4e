import { appResponse, createAppBody } from "@/lib/contracts/oauth2";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { createApp } from "@/lib/server/oauth2/create-app";

export const runtime = "nodejs";

// POST /api/oauth2/app: a new application; 201 with client_id and client_secret, shown once (administrators)
export const POST = route({ auth: "admin", body: createAppBody, response: { 201: appResponse } }, async ({ ctx, body }) => created(await createApp(ctx, body)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
