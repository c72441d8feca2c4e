-- Issue 25, finding 2: an archive or a trash item belongs to the owner of what was archived or
-- deleted (a folder's owner; for a file, its folder's), never to whoever acted. Rows made before
-- the fix by someone else than that owner (an archive made with the delete right alone, a
-- company-space deletion) are given back to it, so they stop serving their maker.
UPDATE archives a SET owner_id = f.owner_id FROM folders f
WHERE a.type = 'folder' AND f.id = a.object_id AND a.owner_id IS DISTINCT FROM f.owner_id;
--> statement-breakpoint
UPDATE archives a SET owner_id = f.owner_id FROM files x JOIN folders f ON f.id = x.folder_id
WHERE a.type = 'file' AND x.id = a.object_id AND a.owner_id IS DISTINCT FROM f.owner_id;
--> statement-breakpoint
UPDATE trash_items t SET owner_id = f.owner_id FROM folders f
WHERE t.folder_id = f.id AND t.owner_id <> f.owner_id;
--> statement-breakpoint
UPDATE trash_items t SET owner_id = f.owner_id FROM files x JOIN folders f ON f.id = x.folder_id
WHERE t.folder_id IS NULL AND t.file_id = x.id AND t.owner_id <> f.owner_id;
