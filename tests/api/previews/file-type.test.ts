import { beforeAll, describe, expect, it } from "vitest";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import * as contentRoute from "@/app/api/share/content/[key]/route";
import * as templateRoute from "@/app/api/template/file/route";
import { getDb } from "@/db";
import { fileTypeOf } from "@/lib/server/previews/file-type";
import { makePreview } from "@/lib/server/previews/make-preview";
import { createTestUser } from "../../helpers/factories";
import { createFolder, uploadText } from "../../helpers/files";
import { call } from "../../helpers/http";
import { createShare } from "../shares/share-helpers";
import { fakeMp4, makePdf, makePng, uploadBytes } from "./fixtures";

beforeAll(async () => {
  await getDb();
}, 180_000);

describe("one file_type classifier", () => {
  it("classifies by stored type and name: images, documents (PDF, office) and videos; nothing else", () => {
    expect(fileTypeOf("image/png", "a.png")).toBe("image");
    expect(fileTypeOf("application/pdf", "a.pdf")).toBe("document");
    expect(fileTypeOf("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "a.docx")).toBe("document");
    expect(fileTypeOf("application/zip", "report.odt")).toBe("document");
    expect(fileTypeOf("video/mp4", "a.mp4")).toBe("video");
    expect(fileTypeOf("text/plain", "a.txt")).toBeUndefined();
    expect(fileTypeOf("application/octet-stream", "a.pdf")).toBeUndefined();
  });

  it("names a file the same way in the full File, the folder listing, the share content and the template", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "kinds");
    const uploads = {
      "figures.pdf": await uploadBytes(owner, folder.id, "figures.pdf", makePdf(["one"]), "application/pdf"),
      "photo.png": await uploadBytes(owner, folder.id, "photo.png", await makePng(30, 20), "image/png"),
      "clip.mp4": await uploadBytes(owner, folder.id, "clip.mp4", fakeMp4(), "video/mp4"),
      "notes.txt": await uploadText(owner, folder.id, "notes.txt", "words"),
    };
    const expected: Record<string, string | undefined> = { "figures.pdf": "document", "photo.png": "image", "clip.mp4": "video", "notes.txt": undefined };
    const db = await getDb();
    // Before and after the thumbnails are made (or fail): the same answer.
    for (const pass of ["pending", "done"]) {
      if (pass === "done") for (const u of Object.values(uploads)) await makePreview(db, u.version.id).catch(() => undefined);
      for (const [name, u] of Object.entries(uploads)) {
        const full = await call(fileRoute.GET, { params: { fileId: String(u.version.id) }, token: owner.token, query: { full: "1" } });
        expect(full.body.file_type, `${name} (${pass})`).toBe(expected[name]);
      }
      const listing = await call(folderRoute.GET, { params: { folderId: String(folder.id) }, token: owner.token, query: { full: "1" } });
      for (const f of listing.body.content.files) expect(f.file_type, f.name).toBe(expected[f.name]);
    }
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags: 4 });
    const root = await call(contentRoute.GET, { params: { key: share.key } });
    const inside = await call((await import("@/app/api/share/content/[key]/[folderId]/route")).GET, { params: { key: share.key, folderId: String(root.body.objects[0].id) } });
    expect(inside.status, inside.text).toBe(200);
    for (const item of inside.body.objects) expect(item.file_type, item.name).toBe(expected[item.name]);
    for (const [name, u] of Object.entries(uploads)) {
      const template = await call(templateRoute.POST, { method: "POST", token: owner.token, body: { file_id: u.version.id } });
      expect(template.body.file_type, name).toBe(expected[name]);
    }
  });
});
