import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as annotationRoute from "@/app/api/annotation/route";
import * as oneAnnotationRoute from "@/app/api/annotation/[annotationId]/route";
import { getDb } from "@/db";
import { versionTexts } from "@/db/schema";
import { extractText } from "@/lib/server/texts/extract-text";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call } from "../../helpers/http";
import { createSharedScene, getFolder, names, OPEN_TIMEOUT, openDatabase } from "../folders/fixtures";
import { makePdf, uploadBytes } from "../previews/fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

const search = (token: string, id: number, query: Record<string, string | number>) => getFolder(token, id, { recursive: 1, ...query });

async function annotate(token: string, target: { target_id: number; target_type: "file" | "folder" }, text: string) {
  const res = await call(annotationRoute.POST, { method: "POST", token, body: { ...target, text } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}

describe("search in content (in_content)", () => {
  it("finds files whose current version's text holds every keyword, only for callers who may read them", async () => {
    const { owner, guest, work } = await createSharedScene();
    const word = unique("zebra");
    const db = await getDb();
    const { version: pdf } = await uploadBytes(owner, work.id, "scan.pdf", makePdf([`annual ${word}`, "quartz"]), "application/pdf");
    const { version: notes } = await uploadText(owner, work.id, "notes.txt", `nothing about that: ${word.toUpperCase()} only`);
    const { version: other } = await uploadText(owner, work.id, `${word}.txt`, "unrelated");
    for (const v of [pdf, notes, other]) await extractText(db, v.id);

    const found = await search(owner.token, work.id, { search_label: `${word} quartz`, in_content: 1 });
    expect(found.status, found.text).toBe(200);
    expect(names(found.body.files)).toEqual(["scan.pdf"]);
    expect(found.body.folders).toEqual([]);
    // Case does not matter; the name switch adds the file named after the word (OR).
    expect(names((await search(owner.token, work.id, { search_label: word, in_content: 1 })).body.files)).toEqual(["notes.txt", "scan.pdf"]);
    expect(names((await search(owner.token, work.id, { search_label: word, in_content: 1, in_name: 1 })).body.files)).toEqual(["notes.txt", "scan.pdf", `${word}.txt`]);
    // Names only by default.
    expect(names((await search(owner.token, work.id, { search_label: word })).body.files)).toEqual([`${word}.txt`]);

    // Rights: nothing for a stranger, across the platform; a browse-only guest sees no file.
    const stranger = await createTestUser();
    expect((await search(stranger.token, stranger.privateRootId!, { search_label: word, in_content: 1, global: 1 })).body).toEqual({ folders: [], files: [] });
    await grantRight(work.id, guest.id, allRightsBut("read"));
    expect((await search(guest.token, work.id, { search_label: word, in_content: 1 })).body.files).toEqual([]);
    await grantRight(work.id, guest.id, { read: true });
    expect(names((await search(guest.token, work.id, { search_label: word, in_content: 1 })).body.files)).toEqual(["notes.txt", "scan.pdf"]);
    const admin = await createAdmin();
    expect(names((await search(admin.token, admin.privateRootId!, { search_label: word, in_content: 1, global: 1 })).body.files)).toEqual(["notes.txt", "scan.pdf"]);
  });

  it("searches the current version only", async () => {
    const { owner, work } = await createSharedScene();
    const word = unique("old");
    const db = await getDb();
    const first = await uploadText(owner, work.id, "draft.txt", `first ${word}`);
    await extractText(db, first.version.id);
    expect(names((await search(owner.token, work.id, { search_label: word, in_content: 1 })).body.files)).toEqual(["draft.txt"]);
    const second = await uploadText(owner, work.id, "draft.txt", "second text");
    await extractText(db, second.version.id);
    expect((await search(owner.token, work.id, { search_label: word, in_content: 1 })).body.files).toEqual([]);
    expect((await db.select().from(versionTexts).where(eq(versionTexts.versionId, first.version.id)))[0].content).toContain(word);
  });
});

describe("search in annotations (in_annotations)", () => {
  it("finds files and folders with a live annotation holding every keyword", async () => {
    const { owner, guest, work } = await createSharedScene();
    const word = unique("note");
    const sub = await createFolder(owner, work.id, "Plans");
    const { version } = await uploadText(owner, work.id, "budget.txt", "x");
    await uploadText(owner, work.id, "other.txt", "x");
    await annotate(owner.token, { target_id: version.id, target_type: "file" }, `Please check ${word} figures`);
    const onFolder = await annotate(owner.token, { target_id: sub.id, target_type: "folder" }, `${word} for the figures`);

    const found = await search(owner.token, work.id, { search_label: `FIGURES ${word}`, in_annotations: 1 });
    expect(found.status, found.text).toBe(200);
    expect(names(found.body.files)).toEqual(["budget.txt"]);
    expect(names(found.body.folders)).toEqual(["Plans"]);
    expect((await search(owner.token, work.id, { search_label: `${word} missing`, in_annotations: 1 })).body).toEqual({ folders: [], files: [] });
    // Content only: annotations are not looked at.
    expect((await search(owner.token, work.id, { search_label: word, in_content: 1 })).body).toEqual({ folders: [], files: [] });

    const deleted = await call(oneAnnotationRoute.DELETE, { method: "DELETE", token: owner.token, params: { annotationId: String(onFolder) } });
    expect(deleted.status, deleted.text).toBeLessThan(300);
    expect((await search(owner.token, work.id, { search_label: word, in_annotations: 1 })).body.folders).toEqual([]);

    const stranger = await createTestUser();
    expect((await search(stranger.token, stranger.privateRootId!, { search_label: word, in_annotations: 1, global: 1 })).body).toEqual({ folders: [], files: [] });
    await grantRight(work.id, guest.id, { browse: true });
    const browsing = await search(guest.token, work.id, { search_label: word, in_annotations: 1 });
    expect(browsing.body.files).toEqual([]);
  });
});
