import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as signedRoute from "@/app/api/signatures/[signatureId]/signed/route";
import { getDb } from "@/db";
import { signatureRequests } from "@/db/schema";
import { completeSignatureRequest } from "@/lib/server/signatures/complete-signature-request";
import { signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";
import { unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { createFolder } from "../../helpers/files";
import { expectHealthFast, healthWhile, warmHealth } from "../../helpers/health";
import { expectError } from "../../helpers/http";
import { verifyPdf } from "../../helpers/pdfsig";
import { createTestUser } from "../../helpers/factories";
import { uploadBytes } from "../../helpers/upload-factories";
import { makeManyPagesPdf } from "../previews/fixtures";
import { api, ok, signAll, signer, tokenFromMail } from "./signature-helpers";

// Issue 25, finding 3 (stamping and sealing): pdf-lib and @libpdf/core read, stamp and seal in
// seal workers; a document that takes them seconds no longer holds the server for as long.
beforeAll(async () => {
  await openDatabase();
  await warmHealth();
}, OPEN_TIMEOUT);
afterEach(() => {
  delete process.env.SIGNATURE_TIMEOUT_MS;
});

/** 100,000 pages in one flat page tree (16 MB): pdf-lib takes seconds to read, stamp and write it. */
const heavy = makeManyPagesPdf(100_000);

async function heavyDraft() {
  const owner = await createTestUser();
  const folder = await createFolder(owner, owner.privateRootId!, unique("contracts_"));
  const { version } = await uploadBytes(owner, folder.id, "Heavy.pdf", heavy);
  const request = ok(await api.create(owner, { name: unique("Heavy ") }), 201);
  return { owner, request, versionId: version.id };
}

describe("stamping and sealing happen off the event loop", () => {
  it("a heavy document is inspected, stamped and sealed in workers while health stays under 100 ms; the seal holds", async () => {
    const { owner, request, versionId } = await heavyDraft();
    const added = await healthWhile(api.addDocument(owner, request.id, versionId));
    expectHealthFast(added);
    const doc = ok(added.result, 201);
    expect(doc.pages).toHaveLength(100_000);

    const email = `${unique("heavy")}@example.test`;
    const actor = ok(await api.addActor(owner, request.id, signer(email)), 201);
    ok(await api.addField(owner, request.id, doc.id, { type: "signature", page: 1, x: 50, y: 100, signer_id: actor.id }), 201);
    ok(await api.activate(owner, request.id));
    ok(await signAll(await tokenFromMail(email)));

    const db = await getDb();
    const completed = await healthWhile(completeSignatureRequest(db, request.id));
    expectHealthFast(completed);
    expect(completed.result).toBe("done");
    const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, request.id));
    expect(row.status).toBe("done");
    const res = await signedRoute.GET(new Request("http://coffre.test/x", { headers: { authorization: `Bearer ${owner.token}` } }), { params: Promise.resolve({ signatureId: String(request.id) }) });
    const sealed = new Uint8Array(await res.arrayBuffer());
    expect(await verifyPdf(sealed, { trustCaPem: await signingCaPem(db) })).toContain("Signature is Valid.");
  }, 240_000);

  it("a document over the seal worker's time limit is a 413 once the limit passes, the server answering meanwhile", async () => {
    process.env.SIGNATURE_TIMEOUT_MS = "500";
    const { owner, request, versionId } = await heavyDraft();
    const added = await healthWhile(api.addDocument(owner, request.id, versionId));
    expectHealthFast(added);
    expectError(added.result, 413, "payload_too_large");
    expect(added.result.body.error).toMatch(/too complex.*longer than/);
    expect(added.elapsed).toBeLessThan(6000);
  }, 60_000);
});
