// The metadata half of the reference server: the SQL statements the app runs for each measured
// request (lib/server/auth/authenticate.ts, folders/read-folder.ts, folder-content.ts,
// search-folders.ts, files/list-versions.ts, present-files.ts, users/serialize-user.ts), issued
// in the same order with postgres.js and serialised to the same fields, with no framework, ORM
// or validation layer. It answers the bench's own requests only (the seeded user is the owner of
// everything it reads), so the rights of the app are mirrored for that case: the same queries
// run, their answer is not used to refuse anything.

const RIGHTS_SQL = `
  WITH targets AS (
    SELECT $1::int AS id
    UNION ALL SELECT group_id FROM group_members WHERE user_id = $1
  ), f AS (
    SELECT id, path || id AS chain FROM folders WHERE id IN (__IDS__)
  )
  SELECT f.id,
    EXISTS (SELECT 1 FROM folders a WHERE a.id = ANY(f.chain) AND a.owner_id = $1) AS is_owner,
    n.target_count > 0 AS has_right,
    coalesce(n.browse, false) AS browse, coalesce(n.read, false) AS read,
    coalesce(n.download, false) AS download, coalesce(n.write, false) AS write,
    coalesce(n.edit, false) AS edit, coalesce(n.delete, false) AS delete, coalesce(n.share, false) AS share
  FROM f LEFT JOIN LATERAL (
    SELECT count(*) AS target_count, bool_or(browse) AS browse, bool_or(read) AS read, bool_or(download) AS download,
      bool_or(write) AS write, bool_or(edit) AS edit, bool_or(delete) AS delete, bool_or(share) AS share
    FROM (
      SELECT DISTINCT ON (r.target_id) r.*
      FROM rights r
      WHERE r.folder_id = ANY(f.chain) AND r.target_id IN (SELECT id FROM targets)
      ORDER BY r.target_id, array_position(f.chain, r.folder_id) DESC
    ) nearest
  ) n ON true`;

const TARGETS = `(SELECT $1::int UNION ALL SELECT group_id FROM group_members WHERE user_id = $1)`;
const ALL = { browse: true, read: true, download: true, write: true, edit: true, delete: true, share: true };
const iso = (d) => (d ? new Date(d).toISOString() : null);

// The app's two ways of passing ids, kept as they are because they give the planner different
// information: drizzle's inArray and resolveRights send one parameter per id (`IN ($2, $3)`),
// idArray (lib/server/folders/id-array.ts) inlines an array literal (`= ANY(ARRAY[1,2]::int[])`).
const params = (ids, first) => ids.map((_, i) => `$${first + i}`).join(", ");
function literal(ids) {
  for (const id of ids) if (!Number.isSafeInteger(id)) throw new Error(`Not an id: ${id}`);
  return `ARRAY[${[...new Set(ids)].join(",")}]::int[]`;
}

export function metadataHandlers(sql) {
  const rights = async (user, ids) => {
    if (user.role === 3 || ids.length === 0) return new Map(ids.map((id) => [id, ALL]));
    const result = new Map();
    // resolveRights is called on slices of 5000 ids by the search (search-folders.ts).
    for (let i = 0; i < ids.length; i += 5000) {
      const slice = [...new Set(ids.slice(i, i + 5000))];
      const found = await sql.unsafe(RIGHTS_SQL.replace("__IDS__", params(slice, 2)), [user.id, ...slice]);
      for (const r of found) result.set(r.id, r.is_owner ? ALL : r);
    }
    return result;
  };

  const cans = (r) => ({
    can_read: Boolean(r.read),
    can_write: Boolean(r.write),
    can_edit: Boolean(r.edit),
    can_delete: Boolean(r.delete),
    can_download: Boolean(r.download),
    can_share: Boolean(r.share),
  });

  // presentFiles, light mode: locks and owner names in two queries.
  const presentFiles = async (items, folderRights) => {
    if (items.length === 0) return [];
    const fileIds = [...new Set(items.map((i) => i.file_id))];
    const locks = await sql.unsafe(`SELECT * FROM file_locks WHERE file_id IN (${params(fileIds, 1)})`, fileIds);
    // Owner names: the app loads them in every mode (used by locks and the non-light modes).
    const owners = [...new Set(items.map((i) => i.creator_id))];
    await sql.unsafe(`SELECT id, login, firstname, lastname FROM users WHERE id IN (${params(owners, 1)})`, owners);
    const lockOf = new Map(locks.map((l) => [l.file_id, l]));
    return items.map((i) => ({
      id: i.version_id,
      guid: i.guid,
      name: i.name,
      parent_id: i.folder_id,
      size: Number(i.size),
      modification: iso(i.modified_at),
      ...cans(folderRights.get(i.folder_id) ?? ALL),
      hash: i.md5,
      lock: lockOf.get(i.file_id) ? { locked: true } : null,
    }));
  };

  const FILE_COLUMNS = `f.id AS file_id, f.guid, f.name, f.folder_id, f.modified_at, v.id AS version_id, v.size, v.md5, v.creator_id`;

  async function account(user) {
    const [members, managers] = await Promise.all([
      sql`SELECT gm.user_id, g.id, g.login FROM group_members gm JOIN groups g ON g.id = gm.group_id WHERE gm.user_id IN (${user.id})`,
      sql`SELECT gm.user_id, g.id, g.login FROM group_managers gm JOIN groups g ON g.id = gm.group_id WHERE gm.user_id IN (${user.id})`,
    ]);
    return {
      id: String(user.id),
      login: user.login,
      firstname: user.firstname,
      lastname: user.lastname,
      email: user.email,
      roots: user.private_root_id ? [user.private_root_id] : [],
      organization: user.organization,
      phone: user.phone,
      active: user.active,
      language: user.language,
      quota: user.quota === null ? null : Number(user.quota),
      creation_date: iso(user.created_at),
      last_login: iso(user.last_login),
      groups: members.map((g) => ({ id: String(g.id), login: g.login })),
      manager_of: managers.map((g) => ({ id: String(g.id), login: g.login })),
      role: user.role,
    };
  }

  async function folderPage(user, folder, folderRights, offset, limit) {
    // findChildExceptions: children carrying a right for the user's targets, or owned by the user
    // below a parent they do not own (folder-content.ts).
    const parents = literal([folder.id]);
    const exceptions = await sql.unsafe(
      `SELECT c.id FROM rights r JOIN folders c ON c.id = r.folder_id
       WHERE r.target_id IN ${TARGETS} AND c.parent_id = ANY(${parents}) AND c.deleted_at IS NULL
       UNION
       SELECT c.id FROM folders c JOIN folders p ON p.id = c.parent_id
       WHERE c.owner_id = $1 AND p.owner_id <> $1 AND c.parent_id = ANY(${parents}) AND c.deleted_at IS NULL`,
      [user.id],
    );
    await rights(user, exceptions.map((r) => r.id));
    // idIn(): one parent is `= $1`, so the planner walks the (parent, name_key) index in order.
    const [{ n: nbFolders }] = await sql.unsafe(`SELECT count(*)::int AS n FROM folders WHERE parent_id = $1 AND deleted_at IS NULL`, [folder.id]);
    const [{ n: nbFiles }] = await sql.unsafe(`SELECT count(*)::int AS n FROM files WHERE folder_id = $1 AND deleted_at IS NULL`, [folder.id]);
    const folderLimit = Math.max(0, Math.min(limit, nbFolders - offset));
    const childFolders = folderLimit
      ? await sql.unsafe(
          `SELECT * FROM folders WHERE parent_id = $1 AND deleted_at IS NULL ORDER BY parent_id, name_key LIMIT $2 OFFSET $3`,
          [folder.id, folderLimit, offset],
        )
      : [];
    const fileLimit = limit - folderLimit;
    // selectFiles with a page: the ids of the page on `files` alone, then their versions.
    const fileRows = fileLimit
      ? await sql.unsafe(
          `SELECT ${FILE_COLUMNS} FROM files f JOIN file_versions v ON v.id = f.current_version_id
           WHERE f.id IN (SELECT id FROM files WHERE folder_id = $1 AND deleted_at IS NULL ORDER BY name_key LIMIT $2 OFFSET $3)
           ORDER BY f.folder_id, f.name_key`,
          [folder.id, fileLimit, Math.max(0, offset - nbFolders)],
        )
      : [];
    const map = new Map([[folder.id, folderRights]]);
    return {
      id: folder.id,
      name: folder.name,
      parent_id: folder.parent_id ?? 0,
      ...cans(folderRights),
      content: {
        folders: childFolders.map((c) => ({ id: c.id, name: c.name, parent_id: c.parent_id, ...cans(folderRights) })),
        files: await presentFiles(fileRows, map),
      },
      content_total: nbFolders + nbFiles,
    };
  }

  async function search(user, words, tagIds = []) {
    // findReachableFolders (global scope), then their rights, then the two name queries.
    const reachable = await sql.unsafe(
      `WITH grants AS (
         SELECT r.folder_id AS id FROM rights r WHERE r.target_id IN ${TARGETS}
         UNION
         SELECT o.id FROM folders o LEFT JOIN folders p ON p.id = o.parent_id
         WHERE o.owner_id = $1 AND (p.id IS NULL OR p.owner_id <> $1)
       )
       SELECT f.id FROM folders f
       WHERE f.deleted_at IS NULL AND (f.id IN (SELECT id FROM grants) OR f.path && ARRAY(SELECT id FROM grants))`,
      [user.id],
    );
    const ids = reachable.map((r) => r.id);
    const allowed = await rights(user, ids);
    const readable = [...allowed].filter(([, r]) => r.read).map(([id]) => id);
    const patterns = words.map((w) => `%${w.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const like = (column, from) => patterns.map((_, i) => ` AND ${column} LIKE lower(normalize($${from + i}, NFC))`).join("");
    const browsable = [...allowed].filter(([, r]) => r.browse).map(([id]) => id);
    // tags=: every tag must be on a match, read through tag_links' primary key (search-folders.ts, tag-search.ts).
    const tagged = (column, type) =>
      tagIds.length
        ? ` AND ${column} IN (SELECT l.target_id FROM tag_links l WHERE l.tag_id = ANY(${literal(tagIds)}) AND l.target_type = '${type}' GROUP BY l.target_id HAVING count(*) = ${tagIds.length})`
        : "";
    if (tagIds.length) {
      const [seen] = await sql.unsafe(`SELECT count(*)::int AS n FROM tags WHERE id = ANY(${literal(tagIds)}) AND (NOT private OR owner_id = $1)`, [user.id]);
      if (seen.n !== tagIds.length) return { folders: [], files: [] };
    }
    const folders = browsable.length
      ? await sql.unsafe(
          `SELECT * FROM folders WHERE deleted_at IS NULL AND id = ANY(${literal(browsable)})${like("name_key", 1)}${tagged("id", "folder")}
           ORDER BY name_key, id LIMIT 1000`,
          patterns,
        )
      : [];
    const files = readable.length
      ? await sql.unsafe(
          `SELECT ${FILE_COLUMNS}, d.path FROM files f JOIN file_versions v ON v.id = f.current_version_id JOIN folders d ON d.id = f.folder_id
           WHERE f.deleted_at IS NULL AND f.folder_id = ANY(${literal(readable)})${like("f.name_key", 1)}${tagged("f.id", "file")}
           ORDER BY f.name_key, f.id LIMIT 1000`,
          patterns,
        )
      : [];
    return {
      folders: folders.map((c) => ({ id: c.id, name: c.name, parent_id: c.parent_id ?? 0, ...cans(allowed.get(c.id) ?? ALL) })),
      files: await presentFiles(files, allowed),
    };
  }

  async function readFolder(user, folderId, params) {
    const [folder] = await sql`SELECT * FROM folders WHERE id = ${folderId} AND deleted_at IS NULL LIMIT 1`;
    if (!folder) return undefined;
    const folderRights = (await rights(user, [folder.id])).get(folder.id);
    if (params.get("recursive") === "1") {
      const tagIds = (params.get("tags") ?? "").split(",").filter((t) => /^\d+$/.test(t)).map(Number);
      return search(user, (params.get("search_label") ?? "").split(/\s+/).filter(Boolean), tagIds);
    }
    const offset = Number(params.get("offset_start") ?? 0);
    const limit = Number(params.get("nb_objects") ?? 30);
    return folderPage(user, folder, folderRights, offset, limit);
  }

  async function versions(user, versionId) {
    const [row] = await sql`
      SELECT f.id AS file_id, f.guid, f.name, f.folder_id, f.modified_at, d.id AS folder
      FROM file_versions v JOIN files f ON f.id = v.file_id JOIN folders d ON d.id = f.folder_id
      WHERE v.id = ${versionId} AND v.deleted_at IS NULL AND f.deleted_at IS NULL AND d.deleted_at IS NULL LIMIT 1`;
    if (!row) return undefined;
    const folderRights = await rights(user, [row.folder_id]);
    const list = await sql`SELECT * FROM file_versions WHERE file_id = ${row.file_id} AND deleted_at IS NULL ORDER BY number DESC`;
    const items = list.map((v) => ({ ...row, version_id: v.id, size: v.size, md5: v.md5, creator_id: v.creator_id }));
    return presentFiles(items, folderRights);
  }

  // The platform configuration, cached 2 s per process as lib/server/config/platform-config.ts does.
  let config = null;
  async function publicConfig() {
    if (!config || Date.now() - config.at > 2000) {
      const found = await sql`SELECT key, value FROM platform_config`;
      config = { at: Date.now(), value: Object.fromEntries(found.map((r) => [r.key, r.value])) };
    }
    const v = config.value;
    return { platform_name: v.platform_name ?? "Coffre", features: v.features ?? {}, password_min_length: v.password_min_length ?? 8, languages: ["auto", "fr", "en", "es", "pt", "cn", "de", "it"], version: "0.1.0" };
  }

  return {
    /** Routes answered without a token. */
    async open(url) {
      if (url.pathname === "/api/publicconfig") return publicConfig();
      return undefined;
    },
    async route(url, user) {
      let m;
      if (url.pathname === "/api/account") return account(user);
      if ((m = /^\/api\/folder\/(\d+)$/.exec(url.pathname))) return readFolder(user, Number(m[1]), url.searchParams);
      if ((m = /^\/api\/file\/(\d+)\/versions$/.exec(url.pathname))) return versions(user, Number(m[1]));
      return undefined;
    },
  };
}
