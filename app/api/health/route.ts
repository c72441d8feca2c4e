import { otherMethods } from "@/lib/server/http/methods";
import { checkHealth } from "@/lib/server/platform/check-health";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/health: {status, db, storage}; 503 when a dependency is down (no token)
export const GET = async () => {
  const health = await checkHealth();
  return Response.json(health, { status: health.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
};

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
