import "server-only";
import { UAParser } from "ua-parser-js";
import type { DbOrTx } from "@/db";
import { events } from "@/db/schema";
import type { RequestInfo } from "../context";

// api.md settled types. Files: 0 version created, 1 annotation added, 2 link share created,
// 3 download, 4 preview, 6 lock active, 9 aggregation of downloads. Folders: 0 created,
// 1 annotation added, 4 shared by link, 5 used for a drop link.
export const FILE_EVENT = { versionCreated: 0, annotation: 1, linkShare: 2, download: 3, preview: 4, lock: 6 } as const;
// 6 is ours: a drop link of the folder refused a password or code (issue 25, finding 6).
export const FOLDER_EVENT = { created: 0, annotation: 1, sharedByLink: 4, dropLink: 5, dropLinkRefused: 6 } as const;

export type EventInput = {
  targetType: "file" | "folder";
  targetId: number;
  versionId?: number;
  type: number;
  actorId: number | null;
  data?: unknown;
};

/** Writes a timeline event with the actor's environment; call it in the change's transaction. */
export async function recordEvent(db: DbOrTx, request: RequestInfo, input: EventInput) {
  await db.insert(events).values({
    targetType: input.targetType,
    targetId: input.targetId,
    versionId: input.versionId,
    type: input.type,
    actorId: input.actorId,
    env: parseEnvironment(request.userAgent),
    geo: null,
    data: input.data ?? null,
  });
}

/** The contract's Environment: browser, os, os_type (0 unknown, 1 Windows, 2 Apple, 3 Linux, 4 Android). */
export function parseEnvironment(userAgent: string | null) {
  if (!userAgent) return null;
  const ua = new UAParser(userAgent).getResult();
  const os = ua.os.name ?? "";
  const osType = /windows/i.test(os) ? 1 : /mac|ios/i.test(os) ? 2 : /android/i.test(os) ? 4 : /linux|ubuntu|debian|fedora|chrom/i.test(os) ? 3 : 0;
  return {
    browser: [ua.browser.name, ua.browser.major].filter(Boolean).join(" ") || userAgent.slice(0, 60),
    os: [os, ua.os.version].filter(Boolean).join(" "),
    os_type: osType,
  };
}
