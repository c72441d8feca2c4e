import { validatorCandidatesResponse, validatorSearchQuery } from "@/lib/contracts/workflows";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { searchValidators } from "@/lib/server/workflows/search-validators";

export const runtime = "nodejs";

// GET /api/workflow/validators?search=: accounts to name as internal validators (3+ characters, 10 at most)
export const GET = route({ query: validatorSearchQuery, response: validatorCandidatesResponse }, ({ ctx, query }) => searchValidators(ctx, query.search));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
