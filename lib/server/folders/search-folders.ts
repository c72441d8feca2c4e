import "server-only";
import { and, eq, gte, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { rows, type DbOrTx } from "@/db";
import { fileVersions, files, folders, type Folder, type User } from "@/db/schema";
import type { ReadFolderQuery } from "@/lib/contracts/folders";
import type { AuthedCtx } from "../context";
import { presentFiles } from "../files/present-files";
import { modeOf } from "../present/mode";
import { resolveRightsMany } from "../rights/resolve-many";
import type { Rights } from "../rights/rights";
import { targetIdsOf } from "../rights/targets";
import { loadContentMatches } from "../search/content-matches";
import { typeMatch } from "../search/file-types";
import { webQuery, webTextMatches } from "../search/text-query";
import { tagMatch } from "../tags/tag-search";
import { idArray, inChunks } from "./id-array";
import { fileOrderBy, folderOrderBy, joinFileOwners } from "./listing-order";
import { loadPathCrumbs } from "./path-names";
import { presentFolders } from "./present-folders";

/** Each list of a search answer stops here; a search is narrowed, not paged. */
export const SEARCH_LIMIT = 1000;

/**
 * The search mode of read folder (`recursive`): folders and files below `scope` (or anywhere with
 * `global`, scope null) matching the keywords of `search_label` and the date and size ranges,
 * returned on one level. Only folders the caller may browse and files of folders they may read
 * are returned. Where the keywords are looked for: `in_name` (every keyword in the name; the
 * default when no switch is on), `in_content` (every keyword in the extracted text of the
 * file's current version), `in_annotations` (every keyword in one live annotation of the file or
 * folder); several switches match any of them. Content and annotations read the keywords in the
 * web search syntax (quotes, -word, or). A size range and `types` apply to files only, so they
 * exclude folders; `owner_id` keeps what that user owns (a file's version creator, as shown).
 * `tags` keeps the matches carrying every one of those tags. Every match carries its `path` and
 * `path_name`; files found by their content carry `content_match` (snippet, highlights, page).
 */
export async function searchFolders(ctx: AuthedCtx, scope: Folder | null, query: ReadFolderQuery) {
  const user = ctx.actor.user;
  const mode = modeOf(query);
  const words = (query.search_label ?? "").split(/\s+/).filter(Boolean);
  const keywords = keywordMatch(words, query);
  const filesOnly = query.size_start !== undefined || query.size_end !== undefined || query.types !== undefined;
  const tagged = query.tags ? await tagMatch(ctx.db, user, query.tags, { folder: folders.id, file: files.id }) : undefined;

  // Administrators may read everything: the scope alone limits them. Others: the folders they may reach.
  const allowed = user.role === 3 ? null : await findReachableFolders(ctx.db, user, scope);
  const browsable = allowed && [...allowed].filter(([, r]) => r.browse).map(([id]) => id);
  const readable = allowed && [...allowed].filter(([, r]) => r.read).map(([id]) => id);

  const below = scope ? sql`${folders.path} @> ARRAY[${scope.id}::int]` : undefined;
  const folderMatches =
    filesOnly || browsable?.length === 0 || keywords.folder === false || tagged?.folder === false
      ? []
      : await ctx.db
          .select()
          .from(folders)
          .where(
            and(
              isNull(folders.deletedAt),
              browsable ? sql`${folders.id} = ANY(${idArray(browsable)})` : undefined,
              below,
              keywords.folder,
              tagged?.folder,
              query.owner_id !== undefined ? eq(folders.ownerId, query.owner_id) : undefined,
              range(folders.createdAt, query.creation_start, query.creation_end),
              range(folders.modifiedAt, query.modification_start, query.modification_end),
            ),
          )
          .orderBy(...folderOrderBy(query))
          .limit(SEARCH_LIMIT);

  const inScope = scope
    ? sql`(${files.folderId} = ${scope.id} OR ${files.folderId} IN (SELECT id FROM folders WHERE ${below} AND deleted_at IS NULL))`
    : sql`${files.folderId} IN (SELECT id FROM folders WHERE deleted_at IS NULL)`;
  const fileMatches =
    readable?.length === 0 || keywords.file === false || tagged?.file === false
      ? []
      : await joinFileOwners(
          ctx.db
            .select({ file: files, version: fileVersions, folder: { id: folders.id, path: folders.path } })
            .from(files)
            .innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId))
            .innerJoin(folders, eq(folders.id, files.folderId))
            .$dynamic(),
          query,
        )
          .where(
            and(
              isNull(files.deletedAt),
              readable ? sql`${files.folderId} = ANY(${idArray(readable)})` : inScope,
              keywords.file,
              tagged?.file,
              query.types ? typeMatch(query.types, fileVersions.mime, files.nameKey) : undefined,
              query.owner_id !== undefined ? eq(fileVersions.creatorId, query.owner_id) : undefined,
              range(fileVersions.createdAt, query.creation_start, query.creation_end),
              range(files.modifiedAt, query.modification_start, query.modification_end),
              query.size_start !== undefined ? gte(fileVersions.size, query.size_start) : undefined,
              query.size_end !== undefined ? lte(fileVersions.size, query.size_end) : undefined,
            ),
          )
          .orderBy(...fileOrderBy(query))
          .limit(SEARCH_LIMIT);

  const known = allowed ?? undefined;
  const [folderList, fileList, crumbsOf, contentMatches] = await Promise.all([
    presentFolders(ctx, folderMatches, mode, known),
    inChunks(fileMatches, 5000, (chunk) => presentFiles(ctx, chunk, mode, { rights: known })),
    loadPathCrumbs(ctx, [...folderMatches.map((f) => f.path), ...fileMatches.map((m) => [...m.folder.path, m.folder.id])]),
    query.in_content && words.length ? loadContentMatches(ctx.db, fileMatches.map((m) => m.version.id), words.join(" ")) : new Map(),
  ]);
  // Additive fields of search results (api.md): where each match is (path_crumbs: the browsable
  // folders of path_name with their ids, for links), and what matched in a file's text.
  const place = (chain: number[]) => {
    const crumbs = crumbsOf(chain);
    return { path: `/${chain.join("/")}`, path_name: `/${crumbs.map((c) => c.name).join("/")}`, path_crumbs: crumbs };
  };
  folderMatches.forEach((f, i) => Object.assign(folderList[i], place(f.path)));
  fileMatches.forEach((m, i) => {
    Object.assign(fileList[i], place([...m.folder.path, m.folder.id]));
    const match = contentMatches.get(m.version.id);
    if (match) fileList[i].content_match = match;
  });
  return { folders: folderList, files: fileList };
}

/**
 * Live folders in scope (the scope itself and below, or anywhere) that the user may reach, with
 * their rights: only folders at or below one carrying a right for the user's targets, or owned by
 * the user, can be reached, so those are the only ones resolved.
 */
async function findReachableFolders(db: DbOrTx, user: Pick<User, "id" | "role">, scope: Folder | null): Promise<Map<number, Rights>> {
  const inScope = scope ? sql`(f.id = ${scope.id} OR f.path @> ARRAY[${scope.id}::int])` : sql`true`;
  const found = rows<{ id: number }>(
    await db.execute(sql`
      WITH grants AS (
        SELECT r.folder_id AS id FROM rights r WHERE r.target_id IN ${targetIdsOf(user.id)}
        UNION
        SELECT o.id FROM folders o LEFT JOIN folders p ON p.id = o.parent_id
        WHERE o.owner_id = ${user.id} AND (p.id IS NULL OR p.owner_id <> ${user.id})
      )
      SELECT f.id FROM folders f
      WHERE f.deleted_at IS NULL AND ${inScope}
        AND (f.id IN (SELECT id FROM grants) OR f.path && ARRAY(SELECT id FROM grants))`),
  );
  return resolveRightsMany(db, user, found.map((r) => Number(r.id)));
}

type KeywordMatch = { folder: SQL | undefined | false; file: SQL | undefined | false };

/**
 * The keyword conditions on folders and files (undefined: no keywords; false: this kind cannot
 * match, folders having no content). Name only is the search's fast path and stays exactly the
 * trigram match (every word a substring of the name). Text reads the words in the web search
 * syntax: a version's text in its own language (texts/text-query.ts), annotations in 'simple', spelling
 * the expression of annotations_text_tsv_idx literally so that the index serves it.
 */
function keywordMatch(words: string[], query: ReadFolderQuery): KeywordMatch {
  if (words.length === 0) return { folder: undefined, file: undefined };
  const byName = query.in_name || (!query.in_content && !query.in_annotations);
  const text = words.join(" ");
  const tsquery = webQuery(sql`'simple'`, text);
  // Uncorrelated IN: the matches are found once through the GIN index (a hashed subplan, even
  // inside an OR), not tested row by row.
  const annotated = (targetType: "file" | "folder", targetId: AnyPgColumn) => sql`${targetId} IN (
    SELECT a.target_id FROM annotations a
    WHERE a.target_type = ${targetType} AND a.deleted_at IS NULL AND to_tsvector('simple', a.text) @@ ${tsquery})`;
  const anyOf = (conditions: (SQL | undefined | false)[]) => {
    const kept = conditions.filter((c): c is SQL => Boolean(c));
    return kept.length === 0 ? false : kept.length === 1 ? kept[0] : or(...kept)!;
  };
  return {
    folder: anyOf([byName && and(...words.map((w) => nameContains(folders.nameKey, w))), query.in_annotations && annotated("folder", folders.id)]),
    file: anyOf([
      byName && and(...words.map((w) => nameContains(files.nameKey, w))),
      query.in_content && sql`${files.currentVersionId} IN (SELECT t.version_id FROM version_texts t WHERE ${webTextMatches(text)})`,
      query.in_annotations && annotated("file", files.id),
    ]),
  };
}

/** Case-insensitive substring match on a name_key column (served by the trigram index on it). */
function nameContains(column: AnyPgColumn, word: string): SQL {
  const pattern = `%${word.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} LIKE lower(normalize(${pattern}, NFC))`;
}

function range(column: AnyPgColumn, start?: Date, end?: Date): SQL | undefined {
  return and(start ? gte(column, start) : undefined, end ? lte(column, end) : undefined);
}
