import { noContent } from "@/lib/contracts/common";
import { appPasswordParams } from "@/lib/contracts/account-security";
import { revokeAppPassword } from "@/lib/server/account-security/revoke-app-password";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// DELETE /api/account/app_password/(appPasswordId): revokes it and the sessions opened with it → 204
export const DELETE = route({ params: appPasswordParams, response: noContent }, ({ ctx, params }) => revokeAppPassword(ctx, params.appPasswordId));

export const { GET, POST, PUT, PATCH } = otherMethods({ DELETE });
