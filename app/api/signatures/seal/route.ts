import { signingSealResponse } from "@/lib/contracts/signing-seal";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { readSigningSeal } from "@/lib/server/signatures/read-signing-seal";

export const runtime = "nodejs";

// GET /api/signatures/seal: the sealing certificate and the seals' PAdES level (administrators)
export const GET = route({ auth: "admin", response: signingSealResponse }, ({ ctx }) => readSigningSeal(ctx));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
