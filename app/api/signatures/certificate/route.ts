import { notJson } from "@/lib/contracts/common";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";

export const runtime = "nodejs";

// GET /api/signatures/certificate: the platform's signing CA, PEM (public, no token; api.md "results")
export const GET = route({ auth: "none", response: notJson("application/x-pem-file") }, async ({ ctx }) => {
  const pem = await signingCaPem(ctx.db);
  return new Response(pem, {
    headers: {
      "Content-Type": "application/x-pem-file",
      "Content-Disposition": 'attachment; filename="coffre-signing-ca.pem"',
      "Cache-Control": "no-cache",
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
