import { noContent, notJson } from "@/lib/contracts/common";
import { logoResponse } from "@/lib/contracts/config";
import { deleteLogo } from "@/lib/server/config/delete-logo";
import { readLogo } from "@/lib/server/config/read-logo";
import { updateLogo } from "@/lib/server/config/update-logo";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/config/logo: the platform logo (image/png, no token); 404 when none
export const GET = route({ auth: "none", response: notJson("image/png") }, ({ ctx, req }) => readLogo(ctx, req));

// POST /api/config/logo: multipart part targetFile, at most 2 MB; body { logo_url }
export const POST = route({ auth: "admin", response: logoResponse }, ({ ctx, source }) => updateLogo(ctx, source));

// DELETE /api/config/logo: back to the default mark
export const DELETE = route({ auth: "admin", response: noContent }, ({ ctx }) => deleteLogo(ctx));

export const { PUT, PATCH } = otherMethods({ GET, POST, DELETE });
