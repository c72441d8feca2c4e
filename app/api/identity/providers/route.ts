import { identityProviderListResponse } from "@/lib/contracts/identity-providers";
import { z } from "zod";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { paging } from "@/lib/contracts/common";
import { listIdentityProviders } from "@/lib/server/identity/list-identity-providers";

export const runtime = "nodejs";

// GET /api/identity/providers: every identity provider (administrators), in the list envelope
export const GET = route({ auth: "admin", query: z.object({ ...paging }), response: identityProviderListResponse }, ({ ctx, query }) => listIdentityProviders(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
