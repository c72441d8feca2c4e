import "server-only";
import type { DbOrTx } from "@/db";
import type { ShareRow } from "@/db/schema";
import { assertLinkAccess } from "../links/link-access";
import { getPublicShareOrThrow, protectionOf } from "./load-share";

/**
 * The share behind a key that the request may use: usable (404/410 otherwise) and unlocked by
 * an access token when protected (401 otherwise). Every public operation but the key view,
 * passcheck and sms starts here.
 */
export async function openShare(db: DbOrTx, key: string, req: Request): Promise<ShareRow> {
  const share = await getPublicShareOrThrow(db, key);
  await assertLinkAccess(db, protectionOf(share), req);
  return share;
}
