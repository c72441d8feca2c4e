import { accountResponse, updateAccountBody } from "@/lib/contracts/account";
import { readAccount } from "@/lib/server/account/read-account";
import { updateAccount } from "@/lib/server/account/update-account";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/account: the caller's User with current_language
export const GET = route({ response: accountResponse }, ({ ctx, req }) => readAccount(ctx, req.headers.get("accept-language")));

// PUT /api/account: change own details, language, password (old_password required)
export const PUT = route({ body: updateAccountBody, response: accountResponse }, ({ ctx, body, req }) => updateAccount(ctx, body, req.headers.get("accept-language")));

export const { PATCH, POST, DELETE } = otherMethods({ GET, PUT });
