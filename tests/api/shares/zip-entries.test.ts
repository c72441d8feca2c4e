import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { shares } from "@/db/schema";
import { listZipEntries } from "@/lib/server/shares/zip-entries";
import { createTestUser } from "../../helpers/factories";
import { createFolder, uploadText } from "../../helpers/files";
import { openDatabase } from "../../helpers/upload-factories";
import { createShare } from "./share-helpers";

beforeAll(openDatabase, 180_000);

// Issue 19, part 4: roots of a share with the same name are numbered by the one rule
// (numberedName): a file before its extension, a folder at the end of its name.
describe("zip entries of a share", () => {
  it("number roots that share a name, files before the extension and folders at the end", async () => {
    const owner = await createTestUser();
    const a = await createFolder(owner, owner.privateRootId!, "A");
    const b = await createFolder(owner, owner.privateRootId!, "B");
    const first = await createFolder(owner, a.id, "v1.0");
    const second = await createFolder(owner, b.id, "V1.0");
    await uploadText(owner, first.id, "inside.txt", "inside");
    const file = await uploadText(owner, owner.privateRootId!, "v1.0", "a file named like the folders");
    const other = await uploadText(owner, a.id, "notes.txt", "one");
    const again = await uploadText(owner, b.id, "notes.txt", "two");
    const share = await createShare(owner, {
      roots: [
        { id: file.version.id, entity_type: 1 },
        { id: other.version.id, entity_type: 1 },
        { id: again.version.id, entity_type: 1 },
        { id: first.id, entity_type: 0 },
        { id: second.id, entity_type: 0 },
      ],
    });
    const db = await getDb();
    const [row] = await db.select().from(shares).where(eq(shares.id, share.id));

    const paths = (await listZipEntries(db, row)).map((e) => e.path);
    // Which of the two folders comes first is the roots' order: compare without case.
    const top = paths.filter((p) => /^[^/]+\/?$/.test(p)).map((p) => p.toLowerCase());
    expect(top.sort()).toEqual(["notes (2).txt", "notes.txt", "v1.0", "v1.0 (2)/", "v1.0 (3)/"]);
    expect(paths.some((p) => /^v1\.0 \([23]\)\/inside\.txt$/i.test(p))).toBe(true);
  });
});
