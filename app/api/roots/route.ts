import { rootsResponse } from "@/lib/contracts/folders";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listRoots } from "@/lib/server/spaces/list-roots";

export const runtime = "nodejs";

// GET /api/roots: the private space and company roots as {id, name, type}
export const GET = route({ response: rootsResponse }, ({ ctx }) => listRoots(ctx));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
