import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import { getDb } from "@/db";
import { fileVersions, folders } from "@/db/schema";
import { createAdmin, createTestUser, unique, type TestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { at, createSharedScene, getFolder, names, OPEN_TIMEOUT, openDatabase } from "../folders/fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

type Match = { snippet: string; highlights: [number, number][]; page: number | null };
type Found = { name: string; path?: string; path_name?: string; path_crumbs?: { id: number; name: string }[]; content_match?: Match };

const search = (token: string, id: number, query: Record<string, string | number>) => getFolder(token, id, { recursive: 1, ...query });
const inContent = async (token: string, id: number, label: string, more: Record<string, string | number> = {}) => {
  const res = await search(token, id, { search_label: label, in_content: 1, ...more });
  expect(res.status, res.text).toBe(200);
  return res.body.files as Found[];
};
/** The words a match highlights, in order. */
const marked = (m: Match) => m.highlights.map(([s, e]) => m.snippet.slice(s, e));

/** A file whose current version's extracted text is `content`, indexed in `language`. */
async function withText(user: TestUser, folderId: number, name: string, content: string, language = "simple") {
  const { version } = await uploadText(user, folderId, name, "x");
  const db = await getDb();
  await db.execute(sql`
    INSERT INTO version_texts (version_id, state, content, language) VALUES (${version.id}, 'available', ${content}, ${language})
    ON CONFLICT (version_id) DO UPDATE SET state = 'available', content = EXCLUDED.content, language = EXCLUDED.language`);
  return version;
}

describe("search syntax in content (websearch_to_tsquery)", () => {
  it("reads quotes as a phrase, -word as an exclusion and or as an alternative", async () => {
    const { owner, work } = await createSharedScene();
    const w = unique("kiwi");
    await withText(owner, work.id, "a.txt", `the annual report of ${w} for the board`);
    await withText(owner, work.id, "b.txt", `report, annual: a draft of ${w}`);
    await withText(owner, work.id, "c.txt", `the budget of ${w}`);

    expect(names(await inContent(owner.token, work.id, `${w} annual report`))).toEqual(["a.txt", "b.txt"]);
    expect(names(await inContent(owner.token, work.id, `${w} "annual report"`))).toEqual(["a.txt"]);
    expect(names(await inContent(owner.token, work.id, `${w} report -draft`))).toEqual(["a.txt"]);
    expect(names(await inContent(owner.token, work.id, `${w} budget or draft`))).toEqual(["b.txt", "c.txt"]);
    // Syntax a user may type by mistake is no error.
    expect(names(await inContent(owner.token, work.id, `${w} "unclosed -- or or " -`))).toEqual([]);
    expect(names(await inContent(owner.token, work.id, `"${w}`))).toEqual(["a.txt", "b.txt", "c.txt"]);
  });

  it("finds a French text by an inflected form, a 'simple' one by its exact words only", async () => {
    const { owner, work } = await createSharedScene();
    const w = unique("fr");
    await withText(owner, work.id, "fr.txt", `Les contrats ${w} sont signés.`, "french");
    await withText(owner, work.id, "plain.txt", `Les contrats ${w} sont signés.`);
    const found = await inContent(owner.token, work.id, `contrat ${w}`);
    expect(names(found)).toEqual(["fr.txt"]);
    expect(marked(found[0].content_match!)).toEqual(["contrats", w]);
    expect(names(await inContent(owner.token, work.id, `contrats ${w}`))).toEqual(["fr.txt", "plain.txt"]);
  });
});

describe("content_match of search results", () => {
  it("carries a plain-text snippet, the offsets of the matched words and the page of a paged text", async () => {
    const { owner, work } = await createSharedScene();
    const w = unique("zebra");
    const pages = ["Cover page of the contract.", "Summary: nothing here.", `Clause 7. The tenant pays the ${w} fee\tmonthly,\n\nbefore the fifth.`, "Signatures"];
    await withText(owner, work.id, "lease.pdf", pages.join("\f"));
    await withText(owner, work.id, "notes.txt", `First line.\nThe ${w} fee is due.\n`);
    await withText(owner, work.id, `${w} fee.txt`, "unrelated");

    const found = await inContent(owner.token, work.id, `${w} fee`, { in_name: 1 });
    expect(names(found)).toEqual(["lease.pdf", "notes.txt", `${w} fee.txt`]);
    const [pdf, notes, byName] = found;
    expect(pdf.content_match!.page).toBe(3);
    expect(marked(pdf.content_match!)).toEqual([w, "fee"]);
    // Whitespace and page breaks read as one space; the snippet is around the match.
    expect(pdf.content_match!.snippet).toContain(`The tenant pays the ${w} fee monthly, before the fifth.`);
    expect(pdf.content_match!.snippet).not.toMatch(/[\f\t\n]/);
    expect(notes.content_match!.page).toBeNull();
    expect(notes.content_match!.snippet).toBe(`First line. The ${w} fee is due.`);
    expect(notes.content_match!.highlights).toEqual([
      [16, 16 + w.length],
      [17 + w.length, 20 + w.length],
    ]);
    // Found by its name only: no content_match.
    expect(byName.content_match).toBeUndefined();
    // Without in_content, no snippet is made.
    const byNameOnly = (await search(owner.token, work.id, { search_label: w })).body.files as Found[];
    expect(byNameOnly.map((f) => f.content_match)).toEqual([undefined]);
  });

  it("gives offsets in UTF-16 code units and a phrase's page when it runs over a page break: null", async () => {
    const { owner, work } = await createSharedScene();
    const w = unique("emoji");
    await withText(owner, work.id, "u.txt", `😀 été ${w} 😀 end`);
    await withText(owner, work.id, "split.pdf", `one two ${w}\fthree four`);
    const u = (await inContent(owner.token, work.id, w)).find((f) => f.name === "u.txt")!;
    expect(marked(u.content_match!)).toEqual([w]);
    expect(u.content_match!.snippet).toBe(`😀 été ${w} 😀 end`);
    expect(u.content_match!.highlights).toEqual([[7, 7 + w.length]]);
    const [split] = await inContent(owner.token, work.id, `"${w} three"`);
    expect(split.name).toBe("split.pdf");
    expect(split.content_match!.page).toBeNull();
    expect(marked(split.content_match!)).toContain(w);
    expect((await inContent(owner.token, work.id, `${w} three`))[0].content_match!.page).toBeNull();
    expect((await inContent(owner.token, work.id, `${w} one`))[0].content_match!.page).toBe(1);
    // A PDF or a scan of one page (no page break): page 1; other texts without pages: null.
    const single = await withText(owner, work.id, "single.pdf", `only page ${w}`);
    const db = await getDb();
    await db.update(fileVersions).set({ mime: "application/pdf" }).where(eq(fileVersions.id, single.id));
    const pages = await inContent(owner.token, work.id, w);
    expect(pages.map((f) => [f.name, f.content_match!.page])).toEqual([
      ["single.pdf", 1],
      ["split.pdf", 1],
      ["u.txt", null],
    ]);
  });

  it("returns a hostile text as plain text: no markup added, controls and bidi overrides left out", async () => {
    const { owner, work } = await createSharedScene();
    const w = unique("evil");
    const hostile = `<script>alert("x")</script> <img src=x onerror=alert(1)> \u0002fake\u0003 \u202Eevil\u202C &lt;b&gt; ${w} <b>bold</b>`;
    await withText(owner, work.id, "hostile.html", hostile);
    const res = await search(owner.token, work.id, { search_label: w, in_content: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const match = (res.body.files as Found[])[0].content_match!;
    expect(marked(match)).toEqual([w]);
    expect(match.snippet).toContain(`&lt;b&gt; ${w}`);
    expect(match.snippet).not.toMatch(/[\u0000-\u001f\u202a-\u202e\u2066-\u2069]/);
    expect(match.snippet).not.toContain("<mark");
    // The text's own STX/ETX never become highlights.
    expect(match.highlights).toHaveLength(1);
  });
});

describe("paths, types and owners in search results", () => {
  it("gives each match its path and the names of the folders above it", async () => {
    const { owner, guest, work } = await createSharedScene();
    const w = unique("path");
    const sub = await createFolder(owner, work.id, `Sub ${w}`);
    await withText(owner, sub.id, "deep.txt", `text ${w}`);
    const db = await getDb();
    const [root] = await db.select().from(folders).where(eq(folders.id, owner.privateRootId!));
    const res = await search(owner.token, work.id, { search_label: w, in_content: 1, in_name: 1 });
    const [file] = res.body.files as Found[];
    expect(file.path).toBe(`/${root.id}/${work.id}/${sub.id}`);
    expect(file.path_name).toBe(`/${root.name}/Work/Sub ${w}`);
    expect(res.body.folders[0]).toMatchObject({ name: `Sub ${w}`, path: `/${root.id}/${work.id}`, path_name: `/${root.name}/Work` });
    // path_crumbs: the same folders with their ids, for links.
    expect(file.path_crumbs).toEqual([
      { id: root.id, name: root.name },
      { id: work.id, name: "Work" },
      { id: sub.id, name: `Sub ${w}` },
    ]);
    expect(res.body.folders[0].path_crumbs).toEqual([
      { id: root.id, name: root.name },
      { id: work.id, name: "Work" },
    ]);
    // A guest given Sub alone sees no name nor id of the folders above it.
    await grantRight(sub.id, guest.id, { read: true });
    const seen = await search(guest.token, sub.id, { search_label: w, in_content: 1 });
    expect((seen.body.files as Found[])[0].path_name).toBe(`/Sub ${w}`);
    expect((seen.body.files as Found[])[0].path_crumbs).toEqual([{ id: sub.id, name: `Sub ${w}` }]);
  });

  it("keeps the files of the kinds asked (types), leaving folders out, and what one owner owns (owner_id)", async () => {
    const { owner, guest, work } = await createSharedScene();
    const w = unique("kind");
    await createFolder(owner, work.id, `${w} folder`);
    for (const name of ["a.docx", "b.xlsx", "c.pptx", "d.txt", "e.csv"]) await uploadText(owner, work.id, `${w} ${name}`, "x");
    const db = await getDb();
    const png = await uploadText(owner, work.id, `${w} f.bin`, "x");
    await db.update(fileVersions).set({ mime: "image/png" }).where(eq(fileVersions.id, png.version.id));
    const pdf = await uploadText(owner, work.id, `${w} g.pdf`, "x");
    await db.update(fileVersions).set({ mime: "application/pdf" }).where(eq(fileVersions.id, pdf.version.id));

    const of = async (types: string) => {
      const res = await search(owner.token, work.id, { search_label: w, types });
      expect(res.status, res.text).toBe(200);
      expect(res.body.folders).toEqual([]);
      return names(res.body.files);
    };
    expect(await of("document")).toEqual([`${w} a.docx`]);
    expect(await of("spreadsheet,presentation")).toEqual([`${w} b.xlsx`, `${w} c.pptx`, `${w} e.csv`]);
    expect(await of("image")).toEqual([`${w} f.bin`]);
    // A PDF is known from its (sniffed) type, not its name.
    expect(await of("pdf")).toEqual([`${w} g.pdf`]);
    expect(await of("text")).toEqual([`${w} d.txt`]);
    expectError(await search(owner.token, work.id, { types: "document,executable" }), 400, "invalid_request");
    expectError(await search(owner.token, work.id, { types: "" }), 400, "invalid_request");

    await grantRight(work.id, guest.id, allRightsBut("delete"));
    await uploadText(guest, work.id, `${w} guest.txt`, "x");
    const mine = await search(owner.token, work.id, { search_label: w, owner_id: guest.id });
    expect(names(mine.body.files)).toEqual([`${w} guest.txt`]);
    expect(mine.body.folders).toEqual([]);
    const theirs = await search(guest.token, work.id, { search_label: `${w} folder`, owner_id: owner.id });
    expect(names(theirs.body.folders)).toEqual([`${w} folder`]);
  });
});

describe("search input and rights", () => {
  it("refuses NUL in the words with 400 and reads bidi and other characters as words", async () => {
    const { owner, work } = await createSharedScene();
    const w = unique("bidi");
    await withText(owner, work.id, "t.txt", `text ${w}`);
    expectError(await search(owner.token, work.id, { search_label: `${w}\u0000`, in_content: 1 }), 400, "invalid_request");
    for (const label of [`\u202E${w}`, `${w} \u2066x\u2069`, `${w} ');--`, `${w} <>&:*|!()`, "\u0001\u0002\u0003", "     "]) {
      const res = await search(owner.token, work.id, { search_label: label, in_content: 1, in_annotations: 1, in_name: 1 });
      expect(res.status, `${JSON.stringify(label)}: ${res.text}`).toBe(200);
    }
    expect(names(await inContent(owner.token, work.id, `${w} <>&:*|!()`))).toEqual(["t.txt"]);
  });

  it("never shows the snippet of a file the caller may not read", async () => {
    const { owner, guest, work } = await createSharedScene();
    const w = unique("secret");
    await withText(owner, work.id, "secret.txt", `the ${w} plan`);
    const stranger = await createTestUser();
    await withText(stranger, stranger.privateRootId!, "mine.txt", `my ${w} too`);
    const global = { search_label: w, in_content: 1, global: 1 };

    const own = await search(stranger.token, stranger.privateRootId!, global);
    expect(names(own.body.files)).toEqual(["mine.txt"]);
    expect(own.text).not.toContain("plan");
    // Browse without read: no file, no snippet.
    await grantRight(work.id, guest.id, allRightsBut("read"));
    const browsing = await search(guest.token, work.id, { search_label: w, in_content: 1 });
    expect(browsing.body.files).toEqual([]);
    expect(browsing.text).not.toContain(w);
    // Someone else's folder as scope: 404, as any search there.
    expectError(await search(stranger.token, work.id, { search_label: w, in_content: 1 }), 404, "not_found");
    const admin = await createAdmin();
    const all = await search(admin.token, admin.privateRootId!, global);
    expect(names(all.body.files)).toEqual(["mine.txt", "secret.txt"]);
    await expectAuthRequired(folderRoute.GET, { ...at(work.id), query: { recursive: 1, search_label: w, in_content: 1 } });
  });
});
