import "server-only";
import { and, eq, gt, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileTokens, users, type FileRow, type FileVersion, type Folder, type User } from "@/db/schema";
import type { FileTokenType } from "@/lib/contracts/files";
import { accountRefusal } from "../auth/account-state";
import { hashToken } from "../auth/tokens";
import { AppError } from "../errors";
import { findLiveVersion } from "../files/live-files";
import { resolveFolderRights } from "../rights/resolve-rights";
import type { Rights } from "../rights/rights";
import { pinnedUse, RIGHT_FOR_TOKEN } from "./create-file-token";

/**
 * `rights`: the token user's rights in the file's folder now (a preview token's holder may lack
 * download). `pinned`: the token serves its version only, whatever `latest` asks (pinnedUse).
 */
export type RedeemedFileToken = { version: FileVersion; file: FileRow; folder: Folder; user: User; rights: Rights; pinned: boolean };

/**
 * What a file token gives access to, for the download and preview routes. A token stays usable
 * until it expires (a download may be resumed with several Range requests). Unknown, expired or
 * other-use tokens, and tokens whose user lost the account or the right since, are a 403; a
 * version, file or folder gone to the trash or deleted is a 404.
 */
export async function redeemFileToken(db: DbOrTx, token: string, type: FileTokenType): Promise<RedeemedFileToken> {
  const [row] = await db
    .select({ token: fileTokens, user: users })
    .from(fileTokens)
    .innerJoin(users, eq(users.id, fileTokens.userId))
    .where(and(eq(fileTokens.tokenHash, hashToken(token)), inArray(fileTokens.type, [type, pinnedUse(type)]), gt(fileTokens.expiresAt, new Date())))
    .limit(1);
  if (!row || accountRefusal(row.user)) throw new AppError("forbidden", "This file token is invalid or has expired; ask for a new one");

  const found = await findLiveVersion(db, row.token.versionId);
  if (!found) throw new AppError("not_found", "File not found");
  const rights = await resolveFolderRights(db, row.user, found.folder.id);
  if (!rights[RIGHT_FOR_TOKEN[type]]) throw new AppError("forbidden", "The right this token was given for has been withdrawn");
  return { ...found, user: row.user, rights, pinned: row.token.type !== type };
}
