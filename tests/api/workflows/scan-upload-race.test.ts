import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as uploadRoute from "@/app/api/workflow/instance/[key]/upload/route";
import { getDb } from "@/db";
import { blobs, files, fileVersions } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { usedByUser } from "@/lib/server/quotas/assert-quota";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call } from "../../helpers/http";
import { withLocalSmtp } from "../../helpers/smtp";
import { multipartBody } from "../../helpers/upload-factories";
import { makePdf, pdfScene } from "../signatures/signature-helpers";
import { address, start, tokenFromMail } from "./workflow-helpers";

// Issue 25, finding 16: six concurrent scans through one flux 2 link stored six files while one
// was accepted. One is accepted; the others leave no file, no blob and no quota behind.

const smtp = withLocalSmtp(openDatabase, OPEN_TIMEOUT);

async function storedIds(): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const id of getBlobStore().list()) ids.add(id);
  return ids;
}

describe("flux 2: concurrent scans through one link", () => {
  it("accepts exactly one of six racing uploads; the refused ones leave no file, blob or quota", async () => {
    const { owner, folder, versionId } = await pdfScene({ name: "Lease.pdf" });
    const signer = address();
    await start(owner, { flux: { id: 2 }, properties: { objects: [{ type: "file", id: versionId }], signatures: [{ email: signer }] } });
    const { token } = await tokenFromMail(smtp(), signer);
    const db = await getDb();
    const usedBefore = await usedByUser(db, owner.id);
    const storedBefore = await storedIds();

    const scans = await Promise.all(Array.from({ length: 6 }, (_, i) => makePdf(i + 1)));
    const answers = await Promise.all(
      scans.map((data, i) => {
        const { body, contentType } = multipartBody([{ name: "targetFile", filename: `scan-${i}.pdf`, data }]);
        return call(uploadRoute.POST, { method: "POST", params: { key: token }, rawBody: body, headers: { "content-type": contentType } });
      }),
    );

    const accepted = answers.filter((a) => a.status === 200);
    expect(accepted, answers.map((a) => `${a.status} ${a.text}`).join("\n")).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect([409, 410], refused.text).toContain(refused.status);
      expect(["conflict", "workflow_closed"]).toContain(refused.body.code);
    }

    const inFolder = await db.select().from(files).where(eq(files.folderId, folder.id));
    expect(inFolder.map((f) => f.name).sort()).toEqual(["Lease (signed).pdf", "Lease.pdf"]);
    const scan = inFolder.find((f) => f.name === "Lease (signed).pdf")!;
    const versions = await db.select().from(fileVersions).where(eq(fileVersions.fileId, scan.id));
    expect(versions).toHaveLength(1);

    // One new blob in the store and in the blobs table: the accepted scan's.
    const added = [...(await storedIds())].filter((id) => !storedBefore.has(id));
    expect(added).toEqual([versions[0].blobId]);
    expect((await db.select({ id: blobs.id }).from(blobs).where(inArray(blobs.id, added))).map((b) => b.id)).toEqual(added);
    expect(await usedByUser(db, owner.id)).toBe(usedBefore + versions[0].size);
  });
});
