import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as previewContentRoute from "@/app/api/preview/[fileId]/content/route";
import * as uploadRoute from "@/app/api/workflow/instance/[key]/upload/route";
import { getDb } from "@/db";
import { files } from "@/db/schema";
import { downloadByToken } from "@/lib/server/downloads/serve-download";
import { createFileToken } from "@/lib/server/tokens/create-file-token";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { ctxFor, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";
import { withLocalSmtp } from "../../helpers/smtp";
import { multipartBody } from "../../helpers/upload-factories";
import { makePdf, pdfScene } from "../signatures/signature-helpers";
import { address, documentToken, flux1, read, start, tokenFromMail } from "./workflow-helpers";

// Issue 25, finding 11: a validator's download token with `latest=1` served a version uploaded
// after the instance started. What a validator reaches is the version submitted, and only it.

const smtp = withLocalSmtp(openDatabase, OPEN_TIMEOUT);

// Downloads by token are served on Node's own response (as server.ts mounts them): real HTTP.
let server: Awaited<ReturnType<typeof serveNode>>;
beforeAll(async () => {
  server = await serveNode(downloadByToken);
});
afterAll(() => server.close());
async function downloadWith(token: string, query = "") {
  const res = await fetch(`${server.url}/api/file/download?token=${encodeURIComponent(token)}${query}`);
  return { status: res.status, text: await res.text() };
}

describe("a validator's document tokens are pinned to the submitted version (issue 25)", () => {
  it("download with latest=1 still serves the submitted version; the newer one is out of reach, by preview too", async () => {
    const { owner, folder, version, file } = await createFileScene({ text: "submitted text" });
    const to = address();
    await start(owner, flux1(version.id, { externe: [{ email: to }] }));
    const token = (await tokenFromMail(smtp(), to)).token;
    const later = await uploadText(owner, folder.id, file.name, "written after the request");
    expect(later.file.id).toBe(file.id);

    const download = await documentToken(token, version.id, "download");
    expect(download.status, download.text).toBe(200);
    expect(await downloadWith(download.body.token, "&latest=1")).toEqual({ status: 200, text: "submitted text" });
    expect(await downloadWith(download.body.token)).toEqual({ status: 200, text: "submitted text" });

    expectError(await documentToken(token, later.version.id, "download"), 404, "not_found");
    expectError(await documentToken(token, later.version.id, "preview"), 404, "not_found");
    const preview = await documentToken(token, version.id, "preview");
    const other = await call(previewContentRoute.GET, { params: { fileId: String(later.version.id) }, query: { token: preview.body.token } });
    expectError(other, 403, "forbidden");
    const same = await call(previewContentRoute.GET, { params: { fileId: String(version.id) }, query: { token: preview.body.token } });
    expect(same.text).toBe("submitted text");

    // A user's own token still follows `latest` (the contract's download by token).
    const own = await createFileToken(await ctxFor(owner), version.id, "download");
    expect(await downloadWith(own.token, "&latest=1")).toEqual({ status: 200, text: "written after the request" });
  });

  it("flux 2: the signed scan shown is the one the signer sent, not a version uploaded over it", async () => {
    const { owner, versionId, folder } = await pdfScene({ name: "Deed.pdf" });
    const signer = address();
    const instance = await start(owner, { flux: { id: 2 }, properties: { objects: [{ type: "file", id: versionId }], signatures: [{ email: signer }] } });
    const { token } = await tokenFromMail(smtp(), signer);
    const { body, contentType } = multipartBody([{ name: "targetFile", filename: "scan.pdf", data: await makePdf(1) }]);
    const sent = await call(uploadRoute.POST, { method: "POST", params: { key: token }, rawBody: body, headers: { "content-type": contentType } });
    expect(sent.status, sent.text).toBe(200);
    const scanVersion = sent.body.documents[0].signed_id as number;

    const db = await getDb();
    const [scan] = await db.select().from(files).where(and(eq(files.folderId, folder.id), eq(files.name, "Deed (signed).pdf")));
    await uploadText(owner, folder.id, scan.name, "not the scan");
    const seen = await read(instance.id, owner.token);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.documents[0]).toMatchObject({ signed_name: "Deed (signed).pdf", signed_id: scanVersion });
  });
});
