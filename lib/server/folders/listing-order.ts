import "server-only";
import { asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn, type PgSelect } from "drizzle-orm/pg-core";
import { fileVersions, files, folders, users } from "@/db/schema";
import type { ListingOrder } from "@/lib/contracts/folders";

/**
 * The ORDER BY of a listing or a search (our own `order` and `direction` parameters: the contract
 * names none). Folders always come before files; each list is ordered by the chosen column, then
 * by name and id so that pages never overlap. A file's size is its current version's and its
 * owner the version's creator (as the listing shows them); a folder's size is a subtree sum the
 * listing computes afterwards, so folders keep their name order when sorting by size.
 * By name, a folder's page is an index scan (files_folder_id_name_idx, either direction).
 */
export type Order = { order?: ListingOrder; direction?: "asc" | "desc" };

const by = (column: AnyPgColumn | SQL, direction: Order["direction"]) => (direction === "desc" ? desc(column) : asc(column));

/** The owner's display name as loadOwnerNames writes it ("first last", or the login). */
const displayName = (u: Record<"firstname" | "lastname" | "login", AnyPgColumn | SQL>) =>
  sql`COALESCE(NULLIF(TRIM(${u.firstname} || ' ' || ${u.lastname}), ''), ${u.login})`;
/** A folder's owner's name, looked up per folder (a folder's subfolders are few; files join instead). */
const ownerName = (userId: AnyPgColumn) =>
  sql`(SELECT ${displayName({ firstname: sql.raw("u.firstname"), lastname: sql.raw("u.lastname"), login: sql.raw("u.login") })} FROM users u WHERE u.id = ${userId})`;

/** The files' owners (their current version's creator), joined once rather than looked up per row. */
const fileOwners = alias(users, "file_owners");

/** Joins the files' owners when the order needs their names (a query reading files and file_versions). */
export function joinFileOwners<T extends PgSelect>(query: T, { order }: Order): T {
  return order === "owner" ? (query.leftJoin(fileOwners, eq(fileOwners.id, fileVersions.creatorId)) as unknown as T) : query;
}

export function folderOrderBy({ order, direction }: Order): SQL[] {
  const name = [by(folders.nameKey, direction), by(folders.id, direction)];
  if (order === "modification") return [by(folders.modifiedAt, direction), ...name];
  if (order === "owner") return [by(ownerName(folders.ownerId), direction), ...name];
  return name;
}

/** Needs file_versions joined on the current version for `size`, and joinFileOwners for `owner`. */
export function fileOrderBy({ order, direction }: Order): SQL[] {
  const name = [by(files.nameKey, direction), by(files.id, direction)];
  if (order === "modification") return [by(files.modifiedAt, direction), ...name];
  if (order === "size") return [by(fileVersions.size, direction), ...name];
  if (order === "owner") return [by(displayName(fileOwners), direction), ...name];
  return name;
}

/** Whether the files' order reads the current version (a page must then join it to pick its ids). */
export const needsVersion = ({ order }: Order) => order === "size" || order === "owner";
