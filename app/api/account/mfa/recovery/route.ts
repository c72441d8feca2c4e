import { recoveryCodesResponse } from "@/lib/contracts/mfa";
import { reauthBody } from "@/lib/contracts/account";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { regenerateRecoveryCodes } from "@/lib/server/mfa/regenerate-recovery-codes";

export const runtime = "nodejs";

// POST /api/account/mfa/recovery: new recovery codes, re-authenticated {password} (or {code}) → {recovery_codes}
export const POST = route({ body: reauthBody, response: recoveryCodesResponse }, ({ ctx, body }) => regenerateRecoveryCodes(ctx, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
