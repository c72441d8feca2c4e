// Seeding of the scaling mode (BENCH_SCALE=1, bench/lib/scale.mjs), by SQL on PostgreSQL:
// a population of users, groups and folders created once (seedPopulation), then files added up
// to each size (growTo) and, per size, the fixtures the bulk operations consume.
import { insertTexts } from "./seed-texts.mjs";
import { log } from "./util.mjs";

export const USERS = 500;
export const FOLDERS = 20_000;
export const GROUPS = 50;
export const DEPTH = 20;

/** 1 name in 50,000 is the name-search target, 1 text in 50,000 the content-search one. */
const nameOf = (n) => `CASE WHEN ${n} % 50000 = 25000 THEN 'quarterly-report-' || ${n} || '.pdf' ELSE 'doc-' || lpad(${n}::text, 8, '0') || '.txt' END`;

const one = async (db, text, params) => (await db.query(text, params))[0];
const maxId = async (db, table) => Number((await one(db, `SELECT coalesce(max(id), 0) AS m FROM ${table}`)).m);
const chain = (path, id) => `ARRAY[${[...path, id].join(",")}]::int[]`;

/**
 * Once: USERS users (the bench user, created through the API, plus clones of its row sharing
 * its password hash) each with a private space of FOLDERS / USERS folders; GROUPS groups all
 * holding the rights user; a company chain of DEPTH nested folders where each group has a
 * right somewhere on the chain; 1% of the folders shared (a right for the bench user); tags.
 */
export async function seedPopulation(db, { login, tiny }) {
  const bench = await one(db, `SELECT id, password_hash, private_root_id FROM users WHERE lower(login) = lower($1)`, [login]);
  const benchId = Number(bench.id);
  const [admin] = await db.query(`SELECT id FROM users WHERE role = 3 ORDER BY id LIMIT 1`);
  await db.query(
    `INSERT INTO users (login, password_hash, role, firstname, lastname, email)
     SELECT 'scale-' || lpad(g::text, 4, '0'), $1, 2, 'Scale', 'User ' || g, 'scale-' || g || '@example.test'
     FROM generate_series(1, $2::int) g`,
    [bench.password_hash, USERS - 1],
  );
  await db.exec(`INSERT INTO folders (name, parent_id, path, owner_id, space, quota)
    SELECT 'Private', NULL, '{}', id, 'private', 0 FROM users WHERE login LIKE 'scale-%' AND private_root_id IS NULL`);
  await db.exec(`UPDATE users u SET private_root_id = f.id FROM folders f
    WHERE f.owner_id = u.id AND f.parent_id IS NULL AND f.space = 'private' AND u.private_root_id IS NULL`);
  const owners = await db.query(`SELECT id, private_root_id FROM users WHERE id = $1 OR login LIKE 'scale-%' ORDER BY id`, [benchId]);
  // FOLDERS folders: folder k (0-based) belongs to owner k % USERS, under their private root.
  const roots = `(SELECT row_number() OVER (ORDER BY id) - 1 AS i, id AS uid, private_root_id AS root FROM users WHERE id = ${benchId} OR login LIKE 'scale-%')`;
  const folderBase = await maxId(db, "folders");
  await db.query(
    `INSERT INTO folders (id, name, parent_id, path, owner_id, space, quota)
     SELECT $1::int + k + 1, 'dir-' || lpad((k / $2::int)::text, 3, '0'), o.root, ARRAY[o.root]::int[], o.uid, 'private', -1
     FROM generate_series(0, $3::int - 1) k JOIN ${roots} o ON o.i = k % $2::int`,
    [folderBase, owners.length, FOLDERS],
  );
  await db.exec(`SELECT setval('folders_id_seq', (SELECT max(id) FROM folders))`);
  // 1% of the folders (those of other users) shared with the bench user, read-only.
  await db.query(
    `INSERT INTO rights (folder_id, target_id, browse, read, download)
     SELECT id, $1::int, true, true, true FROM folders WHERE id > $2::int AND owner_id <> $1::int AND id % 100 = 7`,
    [benchId, folderBase],
  );

  // The rights scenario: a user in GROUPS groups, a company chain of DEPTH folders, group g
  // holding a right on level g % DEPTH (browse on the upper ones, read from the middle down).
  const rightsUser = await one(
    db,
    `INSERT INTO users (login, password_hash, role, firstname, lastname) VALUES ('scale-rights', $1, 2, 'Rights', 'User') RETURNING id`,
    [bench.password_hash],
  );
  const groupIds = (await db.query(`INSERT INTO groups (login) SELECT 'scale-group-' || g FROM generate_series(1, $1::int) g RETURNING id`, [GROUPS])).map((r) => Number(r.id));
  await db.query(`INSERT INTO group_members (group_id, user_id) SELECT unnest($1::int[]), $2::int`, [groupIds, Number(rightsUser.id)]);
  let path = [];
  const chainIds = [];
  for (let level = 0; level < DEPTH; level++) {
    const parent = chainIds.at(-1) ?? null;
    const row = await one(
      db,
      `INSERT INTO folders (name, parent_id, path, owner_id, space, quota) VALUES ($1, $2, $3::int[], $4, 'company', -1) RETURNING id`,
      [`deep-${level}`, parent, `{${path.join(",")}}`, Number(admin.id)],
    );
    chainIds.push(Number(row.id));
    path = [...path, Number(row.id)];
  }
  await db.query(
    `INSERT INTO rights (folder_id, target_id, browse, read, download)
     SELECT ($1::int[])[1 + (i % $3::int)], ($2::int[])[i + 1], true, i % $3::int >= $3::int / 2, false
     FROM generate_series(0, array_length($2::int[], 1) - 1) i`,
    [chainIds, groupIds, DEPTH],
  );
  // Tags owned by the bench user (public): bench-tag on 1 file in 100, bench-tag-rare on 1 in 10,000.
  const common = await one(db, `INSERT INTO tags (name, owner_id) VALUES ('bench-tag', $1) RETURNING id`, [benchId]);
  const rare = await one(db, `INSERT INTO tags (name, owner_id) VALUES ('bench-tag-rare', $1) RETURNING id`, [benchId]);
  await db.query(`INSERT INTO blobs (id, size, md5) VALUES ($1, $2, $3)`, [tiny.id, tiny.size, tiny.md5]);
  await db.exec("VACUUM ANALYZE users, folders, rights, groups, group_members");
  return {
    benchId,
    adminId: Number(admin.id),
    benchRootId: Number(bench.private_root_id),
    folderBase,
    rightsUserId: Number(rightsUser.id),
    deepFolderId: chainIds.at(-1),
    tagIds: [Number(common.id), Number(rare.id)],
  };
}

/** A folder `name` under `parentId` (owned by `ownerId`), created unless it exists. */
export async function ensureFolder(db, { name, parentId, ownerId }) {
  const found = await one(db, `SELECT id FROM folders WHERE parent_id = $1 AND name = $2 AND deleted_at IS NULL`, [parentId, name]);
  if (found) return Number(found.id);
  const parent = await one(db, `SELECT path FROM folders WHERE id = $1`, [parentId]);
  const row = await one(
    db,
    `INSERT INTO folders (name, parent_id, path, owner_id, space, quota) VALUES ($1, $2, ${chain(parsePath(parent.path), parentId)}, $3, 'private', -1) RETURNING id`,
    [name, parentId, ownerId],
  );
  return Number(row.id);
}

/** A user `login` (role user) with a private space, sharing the bench user's password hash. */
export async function ensureUser(db, { login, like }) {
  const found = await one(db, `SELECT id, private_root_id FROM users WHERE lower(login) = lower($1) AND deleted_at IS NULL`, [login]);
  if (found) return { id: Number(found.id), rootId: Number(found.private_root_id) };
  const user = await one(db, `INSERT INTO users (login, password_hash, role) SELECT $1, password_hash, 2 FROM users WHERE id = $2 RETURNING id`, [login, like]);
  const root = await one(db, `INSERT INTO folders (name, parent_id, path, owner_id, space, quota) VALUES ('Private', NULL, '{}', $1, 'private', 0) RETURNING id`, [user.id]);
  await db.query(`UPDATE users SET private_root_id = $1 WHERE id = $2`, [root.id, user.id]);
  return { id: Number(user.id), rootId: Number(root.id) };
}

/**
 * Bulk insert of files, inside the caller's transaction (indexes dropped): `count` files numbered
 * from `numberFrom`, placed by `folderSql(g)` (g = 1..count) and owned by `ownerSql(g)`. Every
 * 10th file gets 3 versions, every 100th (offset 50) goes to the trash of its owner when
 * `trash`, every 100th carries bench-tag, every 10,000th bench-tag-rare too, every 1,000th an
 * annotation, 16 in 100 an extracted text (seed-texts.mjs). Returns the number of rows written.
 */
async function insertFiles(db, { count, numberFrom, folderSql, ownerSql, tiny, tagIds, extras = true, trashAll = false }) {
  if (count <= 0) return 0;
  const fileBase = await maxId(db, "files");
  const versionBase = await maxId(db, "file_versions");
  const current = `CASE WHEN ${extras} AND g % 10 = 0 THEN $3::int + $4::int + 2 * (g / 10) ELSE $3::int + g END`;
  await db.query(
    `INSERT INTO files (id, folder_id, name, owner_id, current_version_id)
     SELECT $1::int + g, ${folderSql("g")}, ${nameOf("($2::bigint + g)")}, ${ownerSql("g")}, ${current}
     FROM generate_series(1, $4::int) g`,
    [fileBase, numberFrom, versionBase, count],
  );
  await db.query(
    `INSERT INTO file_versions (id, file_id, number, blob_id, size, md5, mime, creator_id)
     SELECT $1::int + g, $2::int + g, 1, $3, $4, $5, 'text/plain', x.owner_id
     FROM generate_series(1, $6::int) g JOIN files x ON x.id = $2::int + g`,
    [versionBase, fileBase, tiny.id, tiny.size, tiny.md5, count],
  );
  if (extras) {
    // Versions 2 and 3 of every 10th file: ids versionBase + count + 2k - 1 and + 2k.
    await db.query(
      `INSERT INTO file_versions (id, file_id, number, blob_id, size, md5, mime, creator_id)
       SELECT $1::int + $2::int + 2 * k - 2 + n - 1, $3::int + 10 * k, n, $4, $5, $6, 'text/plain', x.owner_id
       FROM generate_series(1, $2::int / 10) k CROSS JOIN generate_series(2, 3) n JOIN files x ON x.id = $3::int + 10 * k`,
      [versionBase, count, fileBase, tiny.id, tiny.size, tiny.md5],
    );
    await db.query(
      `INSERT INTO tag_links (tag_id, target_type, target_id) SELECT $1::int, 'file', $2::int + g FROM generate_series(100, $3::int, 100) g
       UNION ALL SELECT $4::int, 'file', $2::int + g FROM generate_series(10000, $3::int, 10000) g`,
      [tagIds[0], fileBase, count, tagIds[1]],
    );
    await db.query(
      `INSERT INTO annotations (target_type, target_id, author_id, text)
       SELECT 'file', x.id, x.owner_id, 'scale note ' || x.id FROM files x WHERE x.id > $1::int AND x.id % 1000 = 0`,
      [fileBase],
    );
    // Extracted texts: office documents, OCR'd scans and PDFs (seed-texts.mjs).
    await insertTexts(db, fileBase);
  }
  if (extras || trashAll) {
    const which = trashAll ? "true" : "x.id % 100 = 50";
    await db.query(
      `WITH items AS (
         INSERT INTO trash_items (file_id, owner_id, deleted_by, original_parent_id, name)
         SELECT x.id, x.owner_id, x.owner_id, x.folder_id, x.name FROM files x WHERE x.id > $1::int AND ${which}
         RETURNING id, file_id)
       UPDATE files x SET deleted_at = now(), trash_id = items.id FROM items WHERE x.id = items.file_id`,
      [fileBase],
    );
  }
  await db.exec(`SELECT setval('files_id_seq', (SELECT max(id) FROM files))`);
  await db.exec(`SELECT setval('file_versions_id_seq', (SELECT max(id) FROM file_versions))`);
  return count;
}

/**
 * Runs `work` in one transaction with the secondary indexes of files and file_versions (and the
 * guid constraint) dropped, then rebuilt from their own definitions, then VACUUM ANALYZE.
 */
export async function withIndexesDropped(db, work) {
  await db.exec(`SET maintenance_work_mem = '1GB'`);
  await db.exec("BEGIN");
  const indexes = await db.query(
    `SELECT indexname, indexdef FROM pg_indexes
     WHERE schemaname = 'public' AND tablename IN ('files', 'file_versions')
       AND indexname NOT IN (SELECT conname FROM pg_constraint)`,
  );
  const constraints = await db.query(
    `SELECT c.conname, c.conrelid::regclass::text AS tbl, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
     WHERE c.conrelid = 'files'::regclass AND c.contype = 'u'`,
  );
  for (const ix of indexes) await db.exec(`DROP INDEX "${ix.indexname}"`);
  for (const c of constraints) await db.exec(`ALTER TABLE ${c.tbl} DROP CONSTRAINT "${c.conname}"`);
  await db.exec("SET LOCAL session_replication_role = replica");
  const t0 = performance.now();
  const result = await work();
  const inserted = performance.now();
  await db.exec("SET LOCAL session_replication_role = origin");
  for (const c of constraints) await db.exec(`ALTER TABLE ${c.tbl} ADD CONSTRAINT "${c.conname}" ${c.def}`);
  for (const ix of indexes) await db.exec(ix.indexdef);
  // The triggers that keep user_usage were off (replica role): recount from the versions.
  await db.exec(`INSERT INTO user_usage (user_id, bytes) SELECT creator_id, sum(size) FROM file_versions GROUP BY creator_id
    ON CONFLICT (user_id) DO UPDATE SET bytes = excluded.bytes`);
  await db.exec("COMMIT");
  log(`seed: rows in ${((inserted - t0) / 1000).toFixed(1)} s, ${indexes.length + constraints.length} indexes rebuilt in ${((performance.now() - inserted) / 1000).toFixed(1)} s`);
  await db.exec("VACUUM ANALYZE folders, files, file_versions, trash_items, tag_links, annotations, version_texts");
  return result;
}

/**
 * Grows the database to `size` files. Fixtures first (fixture size F = min(100,000, size / 5)):
 * the page folder and the folder to move grow to F files, a fresh trash user gets F trashed
 * files (one trash item each), a fresh victim user min(1,000,000, size / 10) files; then the
 * population's 20,000 folders get the rest, so that `files` holds `size` rows.
 */
export async function growTo(db, population, { size, tiny, fixtures }) {
  const F = Math.min(100_000, Math.floor(size / 5));
  const victimFiles = Math.min(1_000_000, Math.floor(size / 10));
  const { benchId, benchRootId } = population;
  const pageFolder = await ensureFolder(db, { name: "bench-big", parentId: benchRootId, ownerId: benchId });
  const moveSrc = await ensureFolder(db, { name: "move-src", parentId: benchRootId, ownerId: benchId });
  const moveDst = await ensureFolder(db, { name: "move-dst", parentId: benchRootId, ownerId: benchId });
  // The folder to move sits in whichever of src/dst the last run left it.
  let moveFolder = Number((await one(db, `SELECT id FROM folders WHERE name = 'move-me' AND parent_id IN ($1, $2) AND deleted_at IS NULL`, [moveSrc, moveDst]))?.id ?? 0);
  if (!moveFolder) moveFolder = await ensureFolder(db, { name: "move-me", parentId: moveSrc, ownerId: benchId });
  const trashUser = await ensureUser(db, { login: `scale-trash-${size}`, like: benchId });
  const trashFolder = await ensureFolder(db, { name: "to-trash", parentId: trashUser.rootId, ownerId: trashUser.id });
  const victim = await ensureUser(db, { login: `scale-victim-${size}`, like: benchId });
  const victimFolders = Math.max(1, Math.ceil(victimFiles / 1000));
  const victimBase = await maxId(db, "folders");
  await db.query(
    `INSERT INTO folders (id, name, parent_id, path, owner_id, space, quota)
     SELECT $1::int + g, 'v-' || g, $2::int, ARRAY[$2::int], $3::int, 'private', -1 FROM generate_series(1, $4::int) g`,
    [victimBase, victim.rootId, victim.id, victimFolders],
  );
  await db.exec(`SELECT setval('folders_id_seq', (SELECT max(id) FROM folders))`);
  const countIn = async (folderId) => Number((await one(db, `SELECT count(*) AS n FROM files WHERE folder_id = $1 AND deleted_at IS NULL`, [folderId])).n);
  const t0 = performance.now();
  const numberFrom = Number((await one(db, `SELECT coalesce(max(id), 0) AS m FROM files`)).m);
  await withIndexesDropped(db, async () => {
    const common = { tiny, tagIds: population.tagIds };
    let n = numberFrom;
    const add = async (count, folderSql, ownerSql, options = {}) => {
      const written = await insertFiles(db, { ...common, count, numberFrom: n, folderSql, ownerSql, ...options });
      n += written;
    };
    await add(F - (await countIn(pageFolder)), () => String(pageFolder), () => String(benchId), { extras: false });
    await add(F - (await countIn(moveFolder)), () => String(moveFolder), () => String(benchId), { extras: false });
    await add(F, () => String(trashFolder), () => String(trashUser.id), { extras: false, trashAll: true });
    await add(victimFiles, (g) => `${victimBase} + 1 + (${g} - 1) % ${victimFolders}`, () => String(victim.id), { extras: false });
    const have = Number((await one(db, `SELECT count(*) AS n FROM files`)).n);
    // The rest over the population's folders, round robin; owner = the folder's owner.
    const ownerOf = (g) => `(SELECT owner_id FROM folders WHERE id = ${population.folderBase} + 1 + (${g} - 1) % ${FOLDERS})`;
    const remaining = size - have;
    const batch = 2_000_000;
    for (let done = 0; done < remaining; done += batch) {
      await add(Math.min(batch, remaining - done), (g) => `${population.folderBase} + 1 + (${g} - 1) % ${FOLDERS}`, ownerOf);
      log(`seed: ${Math.min(remaining, done + batch)} of ${remaining} population files`);
    }
  });
  const ms = performance.now() - t0;
  Object.assign(fixtures, { F, victimFiles, pageFolder, moveSrc, moveDst, moveFolder, trashUser, victim });
  return { ms, files: Number((await one(db, `SELECT count(*) AS n FROM files`)).n) };
}

function parsePath(value) {
  if (Array.isArray(value)) return value.map(Number);
  if (typeof value === "string") return value.replace(/[{}]/g, "").split(",").filter(Boolean).map(Number);
  return [];
}
