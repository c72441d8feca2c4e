import { noContent } from "@/lib/contracts/common";
import { lockParams, lockResponse, unlockQuery } from "@/lib/contracts/locks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { lockFile } from "@/lib/server/locks/lock-file";
import { readLock } from "@/lib/server/locks/read-lock";
import { unlockFile } from "@/lib/server/locks/unlock-file";

export const runtime = "nodejs";

// GET /api/lock/(fileId): the file's Lock (`locked: false` when none)
export const GET = route({ params: lockParams, response: lockResponse }, ({ ctx, params }) => readLock(ctx, params.fileId));

// PUT /api/lock/(fileId): lock the file for the caller
export const PUT = route({ params: lockParams, response: lockResponse }, ({ ctx, params }) => lockFile(ctx, params.fileId));

// DELETE /api/lock/(fileId): unlock (`all` accepted: a lock covers every version)
export const DELETE = route({ params: lockParams, query: unlockQuery, response: noContent }, ({ ctx, params }) => unlockFile(ctx, params.fileId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
