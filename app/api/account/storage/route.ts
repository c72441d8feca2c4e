import { ownStorageResponse } from "@/lib/contracts/storage";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { getOwnStorage } from "@/lib/server/quotas/get-own-storage";

export const runtime = "nodejs";

// GET /api/account/storage: the caller's bytes, quota and largest folders (issue 29's usage bar)
export const GET = route({ response: ownStorageResponse }, ({ ctx }) => getOwnStorage(ctx));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
