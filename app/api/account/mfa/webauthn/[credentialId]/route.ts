import { noContent } from "@/lib/contracts/common";
import { reauthBody } from "@/lib/contracts/account";
import { webauthnParams } from "@/lib/contracts/mfa";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteWebauthn } from "@/lib/server/mfa/delete-webauthn";

export const runtime = "nodejs";

// DELETE /api/account/mfa/webauthn/(credentialId): removes one of the caller's security keys, re-authenticated {password} or {code}
export const DELETE = route({ params: webauthnParams, body: reauthBody, response: noContent }, ({ ctx, params, body }) => deleteWebauthn(ctx, params.credentialId, body));

export const { GET, POST, PUT, PATCH } = otherMethods({ DELETE });
