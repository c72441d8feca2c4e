import { appPasswordListResponse, createAppPasswordBody, createdAppPasswordResponse, sessionsQuery } from "@/lib/contracts/account-security";
import { createAppPassword } from "@/lib/server/account-security/create-app-password";
import { listAppPasswords } from "@/lib/server/account-security/list-app-passwords";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/account/app_passwords: the account's app passwords (never the password), envelope
export const GET = route({ query: sessionsQuery, response: appPasswordListResponse }, ({ ctx, query }) => listAppPasswords(ctx, { offset: query.offset_start, limit: query.nb_objects }));

// POST /api/account/app_passwords: {name, password | code} → 201 {id, name, password}, the password shown once
export const POST = route({ body: createAppPasswordBody, response: { 201: createdAppPasswordResponse } }, async ({ ctx, body }) => created(await createAppPassword(ctx, body)));

export const { PUT, PATCH, DELETE } = otherMethods({ GET, POST });
