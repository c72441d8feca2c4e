import { sql } from "drizzle-orm";
import { getDb, rows } from "@/db";
import { users } from "@/db/schema";
import { createPrivateSpace } from "@/lib/server/folders/create-private-space";

// Seeds the bench's shape: one user, 100,000 files in one folder, 900 folders of 1,000 files in a tree,
// all in the user's private space; plus 200 other users with a few files, some trashed, some versions.
const db = await getDb();
const [u] = await db.insert(users).values({ login: "bench", role: 2 }).returning();
const root = await createPrivateSpace(db, u.id);
await db.execute(sql`UPDATE users SET private_root_id = ${root} WHERE id = ${u.id}`);
const t0 = Date.now();
await db.execute(sql`INSERT INTO folders (name, parent_id, path, owner_id, space) VALUES ('big', ${root}, ARRAY[${root}::int], ${u.id}, 'private'), ('tree', ${root}, ARRAY[${root}::int], ${u.id}, 'private')`);
const [big] = rows<{ id: number }>(await db.execute(sql`SELECT id FROM folders WHERE name = 'big'`));
const [tree] = rows<{ id: number }>(await db.execute(sql`SELECT id FROM folders WHERE name = 'tree'`));
await db.execute(sql`INSERT INTO folders (name, parent_id, path, owner_id, space) SELECT 'dir-' || g, ${tree.id}, ARRAY[${root}::int, ${tree.id}::int], ${u.id}, 'private' FROM generate_series(1, 900) g`);
await db.execute(sql`INSERT INTO files (folder_id, name, owner_id) SELECT ${big.id}, 'doc-' || g, ${u.id} FROM generate_series(1, 100000) g`);
await db.execute(sql`INSERT INTO files (folder_id, name, owner_id) SELECT f.id, 'doc-' || g, ${u.id} FROM folders f, generate_series(1, 1000) g WHERE f.parent_id = ${tree.id}`);
await db.execute(sql`INSERT INTO file_versions (file_id, number, blob_id, size, md5, mime, creator_id) SELECT id, 1, 'b', 1000 + id % 5000, 'md5', 'text/plain', ${u.id} FROM files`);
await db.execute(sql`UPDATE files f SET current_version_id = v.id FROM file_versions v WHERE v.file_id = f.id`);
// 20 extra versions on 1000 files.
await db.execute(sql`INSERT INTO file_versions (file_id, number, blob_id, size, md5, mime, creator_id) SELECT f.id, 1 + g, 'b', 777, 'md5', 'text/plain', ${u.id} FROM (SELECT id FROM files ORDER BY id LIMIT 1000) f, generate_series(1, 20) g`);
// 200 more users, each with a private space, 50 files, 5 of them trashed.
for (let i = 0; i < 200; i++) {
  const [x] = await db.insert(users).values({ login: `u${i}`, role: 2 }).returning();
  const r = await createPrivateSpace(db, x.id);
  await db.execute(sql`UPDATE users SET private_root_id = ${r}, last_login = now() - (${i} || ' hours')::interval WHERE id = ${x.id}`);
  await db.execute(sql`INSERT INTO files (folder_id, name, owner_id) SELECT ${r}, 'f' || g, ${x.id} FROM generate_series(1, 50) g`);
  await db.execute(sql`INSERT INTO file_versions (file_id, number, blob_id, size, md5, creator_id) SELECT id, 1, 'b', 5000, 'm', ${x.id} FROM files WHERE folder_id = ${r}`);
  await db.execute(sql`UPDATE files f SET current_version_id = v.id FROM file_versions v WHERE v.file_id = f.id AND f.folder_id = ${r}`);
  const [t] = rows<{ id: number }>(await db.execute(sql`INSERT INTO trash_items (file_id, owner_id, name) SELECT min(id), ${x.id}, 'f' FROM files WHERE folder_id = ${r} RETURNING id`));
  await db.execute(sql`UPDATE files SET deleted_at = now(), trash_id = ${t.id} WHERE id IN (SELECT id FROM files WHERE folder_id = ${r} ORDER BY id LIMIT 5)`);
}
// a month of events (downloads) and logs
await db.execute(sql`INSERT INTO events (target_type, target_id, type, actor_id, date) SELECT 'file', g, 3, ${u.id}, now() - (g % 30 || ' days')::interval FROM generate_series(1, 200000) g`);
await db.execute(sql`INSERT INTO logs (user_id, user_name, message, type, date) SELECT ${u.id}, 'bench', 'm', 'ADMLLOG_UPDATE', now() - (g % 30 || ' days')::interval FROM generate_series(1, 200000) g`);
await db.execute(sql`VACUUM ANALYZE`);
console.log("seeded in", Date.now() - t0, "ms");
process.exit(0);
