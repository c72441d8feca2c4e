import { randomBytes } from "node:crypto";
import path from "node:path";
import { log } from "./util.mjs";

/** A fresh database `coffre_bench_<random>` on the server of `baseUrl`, dropped by `drop()`. */
export async function createBenchDatabase(baseUrl) {
  const { default: postgres } = await import("postgres");
  const name = `coffre_bench_${randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      const conn = postgres(baseUrl, { max: 1, onnotice: () => {} });
      try {
        await conn.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await conn.end();
      }
    },
  };
}

/**
 * A minimal client over either driver: `query(text, params)` resolves rows, `exec(text)` runs
 * statements without parameters, `close()`.
 */
export async function openSeedClient({ databaseUrl, dataDir }) {
  if (databaseUrl) {
    const { default: postgres } = await import("postgres");
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    return {
      driver: "postgres",
      query: (text, params = []) => sql.unsafe(text, params),
      exec: (text) => sql.unsafe(text),
      close: () => sql.end(),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  // The app keeps its PGlite folder at DATA_DIR/db (db/index.ts); the server must be stopped.
  const pg = await PGlite.create({ dataDir: path.join(dataDir, "db"), extensions: { pg_trgm } });
  return {
    driver: "pglite",
    query: async (text, params = []) => (await pg.query(text, params)).rows,
    exec: (text) => pg.exec(text),
    close: () => pg.close(),
  };
}

/**
 * Seeds, for the user `login` (who must exist, with a private space):
 * - Private/bench-big: `bigFiles` files (the page scenario), 1 in 50,000 named quarterly-*;
 * - Private/bench-tree: folders holding the rest, so the user sees `totalFiles` seeded files;
 * - Private/bench-small (empty, for the small uploads), Private/versioned.txt with 20 versions;
 * - the folder of `davFiles` files that PROPFIND lists (issue 26): bench-big when it has that size
 *   (the small seed), otherwise Private/bench-dav of its own (item-00001.txt...), not counted in
 *   `seededFiles` (the figure the metadata rows name);
 * - Private/download.bin whose blob is `download` ({id, size, md5}), already placed in the store.
 * Every seeded file shares one small blob `tiny` ({id, size, md5}). Explicit ids from the
 * sequences, the secondary indexes of files/file_versions dropped during the bulk insert and
 * recreated with their exact definitions (read back from pg_indexes), then ANALYZE.
 */
export async function seed(db, { login, bigFiles, totalFiles, filesPerFolder, tiny, download, versions = 20, davFiles = 10_000 }) {
  const [user] = await db.query(`SELECT id, private_root_id FROM users WHERE lower(login) = lower($1) AND deleted_at IS NULL`, [login]);
  if (!user?.private_root_id) throw new Error(`seed: user ${login} or their private space not found`);
  const uid = Number(user.id);
  const rootId = Number(user.private_root_id);
  const [root] = await db.query(`SELECT path FROM folders WHERE id = $1`, [rootId]);
  const rootChain = `ARRAY[${[...parsePath(root.path), rootId].join(",")}]::int[]`;

  const treeFiles = totalFiles - bigFiles;
  const treeFolders = Math.ceil(treeFiles / filesPerFolder);
  const t0 = performance.now();

  await db.exec(`SET maintenance_work_mem = '${db.driver === "pglite" ? "256MB" : "1GB"}'`);
  await db.exec("BEGIN");
  const next = async (table) => Number((await db.query(`SELECT coalesce(max(id), 0) AS m FROM ${table}`))[0].m);
  const folderBase = await next("folders");
  const bigId = folderBase + 1;
  const treeId = folderBase + 2;
  const smallId = folderBase + 3;
  await db.query(
    `INSERT INTO folders (id, name, parent_id, path, owner_id, space, quota)
     VALUES ($1, 'bench-big', $4, ${rootChain}, $5, 'private', -1),
            ($2, 'bench-tree', $4, ${rootChain}, $5, 'private', -1),
            ($3, 'bench-small', $4, ${rootChain}, $5, 'private', -1)`,
    [bigId, treeId, smallId, rootId, uid],
  );
  const subBase = folderBase + 3;
  await db.query(
    `INSERT INTO folders (id, name, parent_id, path, owner_id, space, quota)
     SELECT $1::int + g, 'dir-' || lpad(g::text, 5, '0'), $2::int, ${rootChain} || $2::int, $3::int, 'private', -1
     FROM generate_series(1, $4::int) g`,
    [subBase, treeId, uid, treeFolders],
  );
  const davOwn = davFiles !== bigFiles;
  const davId = davOwn ? subBase + treeFolders + 1 : bigId;
  if (davOwn) {
    await db.query(`INSERT INTO folders (id, name, parent_id, path, owner_id, space, quota) VALUES ($1, 'bench-dav', $2, ${rootChain}, $3, 'private', -1)`, [davId, rootId, uid]);
  }
  await db.exec(`SELECT setval('folders_id_seq', (SELECT max(id) FROM folders))`);

  await db.query(`INSERT INTO blobs (id, size, md5) VALUES ($1, $2, $3), ($4, $5, $6)`, [
    tiny.id, tiny.size, tiny.md5, download.id, download.size, download.md5,
  ]);

  // Secondary indexes go during the bulk insert: building them afterwards is several times faster.
  const indexes = await db.query(
    `SELECT indexname, indexdef FROM pg_indexes
     WHERE schemaname = 'public' AND tablename IN ('files', 'file_versions')
       AND indexname NOT IN (SELECT conname FROM pg_constraint)`,
  );
  for (const ix of indexes) await db.exec(`DROP INDEX "${ix.indexname}"`);
  // The guid unique constraint (random values: the costliest index to grow row by row) is
  // re-added with its definition read back; foreign keys are not checked row by row, the seed
  // being consistent by construction (session_replication_role needs a superuser: both drivers' default).
  const constraints = await db.query(
    `SELECT c.conname, c.conrelid::regclass::text AS tbl, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
     WHERE c.conrelid = 'files'::regclass AND c.contype = 'u'`,
  );
  for (const c of constraints) await db.exec(`ALTER TABLE ${c.tbl} DROP CONSTRAINT "${c.conname}"`);
  await db.exec("SET LOCAL session_replication_role = replica");

  const fileBase = await next("files");
  const versionBase = await next("file_versions");
  // Names: doc-0000001.txt, and quarterly-report-<n>.pdf for 1 file in 50,000 (the search target).
  const nameOf = (n) => `CASE WHEN ${n} % 50000 = 25000 THEN 'quarterly-report-' || ${n} || '.pdf' ELSE 'doc-' || lpad(${n}::text, 7, '0') || '.txt' END`;
  await db.query(
    `INSERT INTO files (id, folder_id, name, owner_id, current_version_id)
     SELECT $1::int + g, $2::int, ${nameOf("g")}, $3::int, $4::int + g FROM generate_series(1, $5::int) g`,
    [fileBase, bigId, uid, versionBase, bigFiles],
  );
  await db.query(
    `INSERT INTO files (id, folder_id, name, owner_id, current_version_id)
     SELECT $1::int + g, $2::int + 1 + (g - 1) / $3::int, ${nameOf("(g + $6::int)")}, $4::int, $5::int + g
     FROM generate_series(1, $7::int) g`,
    [fileBase + bigFiles, subBase, filesPerFolder, uid, versionBase + bigFiles, bigFiles, treeFiles],
  );
  const seeded = bigFiles + treeFiles;
  await db.query(
    `INSERT INTO file_versions (id, file_id, number, blob_id, size, md5, mime, creator_id)
     SELECT $1::int + g, $2::int + g, 1, $3, $4, $5, 'text/plain', $6::int FROM generate_series(1, $7::int) g`,
    [versionBase, fileBase, tiny.id, tiny.size, tiny.md5, uid, seeded],
  );

  // The version list: one file with `versions` versions, the newest current.
  const versionedFile = fileBase + seeded + 1;
  const downloadFile = fileBase + seeded + 2;
  const vBase = versionBase + seeded;
  await db.query(
    `INSERT INTO files (id, folder_id, name, owner_id, current_version_id) VALUES
       ($1, $3, 'versioned.txt', $4, $5), ($2, $3, 'download.bin', $4, $6)`,
    [versionedFile, downloadFile, rootId, uid, vBase + versions, vBase + versions + 1],
  );
  await db.query(
    `INSERT INTO file_versions (id, file_id, number, blob_id, size, md5, mime, creator_id, created_at)
     SELECT $1::int + g, $2::int, g, $3, $4, $5, 'text/plain', $6::int, now() - (($7::int - g) || ' minutes')::interval
     FROM generate_series(1, $7::int) g`,
    [vBase, versionedFile, tiny.id, tiny.size, tiny.md5, uid, versions],
  );
  await db.query(
    `INSERT INTO file_versions (id, file_id, number, blob_id, size, md5, mime, creator_id)
     VALUES ($1, $2, 1, $3, $4, $5, 'application/octet-stream', $6)`,
    [vBase + versions + 1, downloadFile, download.id, download.size, download.md5, uid],
  );
  if (davOwn) {
    const davFileBase = downloadFile;
    const davVersionBase = vBase + versions + 1;
    await db.query(
      `INSERT INTO files (id, folder_id, name, owner_id, current_version_id)
       SELECT $1::int + g, $2::int, 'item-' || lpad(g::text, 5, '0') || '.txt', $3::int, $4::int + g FROM generate_series(1, $5::int) g`,
      [davFileBase, davId, uid, davVersionBase, davFiles],
    );
    await db.query(
      `INSERT INTO file_versions (id, file_id, number, blob_id, size, md5, mime, creator_id)
       SELECT $1::int + g, $2::int + g, 1, $3, $4, $5, 'text/plain', $6::int FROM generate_series(1, $7::int) g`,
      [davVersionBase, davFileBase, tiny.id, tiny.size, tiny.md5, uid, davFiles],
    );
  }
  // Tags (issue 17): bench-tag on 1 seeded file in 100 (10,000 of 1,000,000), bench-tag-rare on
  // 1 in 10,000, each also carrying bench-tag; a search for both (all must match) finds the rare ones.
  const [common] = await db.query(`INSERT INTO tags (name, owner_id) VALUES ('bench-tag', $1) RETURNING id`, [uid]);
  const [rare] = await db.query(`INSERT INTO tags (name, owner_id) VALUES ('bench-tag-rare', $1) RETURNING id`, [uid]);
  const tagEvery = async (tagId, step) =>
    db.query(`INSERT INTO tag_links (tag_id, target_type, target_id, created_by) SELECT $1::int, 'file', $2::int + g, $3::int FROM generate_series($4::int, $5::int, $4::int) g`, [
      Number(tagId.id),
      fileBase,
      uid,
      step,
      seeded,
    ]);
  await tagEvery(common, 100);
  await tagEvery(rare, 10000);
  await db.exec(`SELECT setval('files_id_seq', (SELECT max(id) FROM files))`);
  await db.exec(`SELECT setval('file_versions_id_seq', (SELECT max(id) FROM file_versions))`);
  const inserted = performance.now();
  log(`seed: ${seeded} files and versions inserted in ${((inserted - t0) / 1000).toFixed(1)} s; rebuilding ${indexes.length + constraints.length} indexes`);
  await db.exec("SET LOCAL session_replication_role = origin");
  for (const c of constraints) await db.exec(`ALTER TABLE ${c.tbl} ADD CONSTRAINT "${c.conname}" ${c.def}`);
  for (const ix of indexes) await db.exec(ix.indexdef);
  // The triggers that keep user_usage were off (replica role): recount from the versions.
  await db.exec(`INSERT INTO user_usage (user_id, bytes) SELECT creator_id, sum(size) FROM file_versions GROUP BY creator_id
    ON CONFLICT (user_id) DO UPDATE SET bytes = excluded.bytes`);
  await db.exec("COMMIT");
  log(`seed: indexes rebuilt in ${((performance.now() - inserted) / 1000).toFixed(1)} s`);
  await db.exec("VACUUM ANALYZE folders, files, file_versions, blobs, tags, tag_links");
  const ms = performance.now() - t0;
  log(`seed: done in ${(ms / 1000).toFixed(1)} s`);

  return {
    ms,
    userId: uid,
    rootId,
    bigFolderId: bigId,
    treeFolderId: treeId,
    smallFolderId: smallId,
    davFolder: { id: davId, name: davOwn ? "bench-dav" : "bench-big", files: davFiles },
    treeFolders,
    seededFiles: seeded,
    versionedFileId: versionedFile,
    versionedVersionId: vBase + versions,
    downloadFileId: downloadFile,
    downloadVersionId: vBase + versions + 1,
    searchLabel: "quarterly",
    searchHits: Math.floor((seeded + 25000) / 50000),
    tagIds: [Number(common.id), Number(rare.id)],
    taggedFiles: Math.floor(seeded / 100),
    tagHits: Math.floor(seeded / 10000),
  };
}

function parsePath(value) {
  if (Array.isArray(value)) return value.map(Number);
  if (typeof value === "string") return value.replace(/[{}]/g, "").split(",").filter(Boolean).map(Number);
  return [];
}
