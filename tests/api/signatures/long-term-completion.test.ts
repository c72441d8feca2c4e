import { writeFile } from "node:fs/promises";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as auditRoute from "@/app/api/signatures/[signatureId]/audit/route";
import * as signedRoute from "@/app/api/signatures/[signatureId]/signed/route";
import { getDb } from "@/db";
import { jobs, signatureDocuments, signatureRequests } from "@/db/schema";
import { completeSignatureRequest } from "@/lib/server/signatures/complete-signature-request";
import { sealTimestampToken } from "@/lib/server/signatures/seal/signature-timestamp";
import { signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";
import { unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { createTestPki, openssl, type TestPki } from "../../helpers/openssl-pki";
import { verifyPdf } from "../../helpers/pdfsig";
import { api, draftWithSigners, ok, signAll, tokenFromMail } from "./signature-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

/** `openssl ts -verify` of the PDF's seal token over its signature value. */
async function tokenVerifies(pki: TestPki, pdf: Uint8Array, name: string): Promise<string> {
  const found = sealTimestampToken(pdf);
  expect(found, "the seal carries a signature timestamp").not.toBeNull();
  await writeFile(path.join(pki.dir, `${name}.tst`), found!.token);
  await writeFile(path.join(pki.dir, `${name}.sig`), found!.signatureValue);
  return (await openssl(["ts", "-verify", "-data", `${name}.sig`, "-in", `${name}.tst`, "-token_in", "-CAfile", "root.pem", "-untrusted", "tsa.pem"], pki.dir)).stdout;
}

describe("a request completed with SIGNING_TSA_URL", () => {
  let pki: TestPki;
  const saved = process.env.SIGNING_TSA_URL;

  beforeAll(async () => {
    pki = await createTestPki();
  }, 60_000);
  afterEach(() => {
    if (saved === undefined) delete process.env.SIGNING_TSA_URL;
    else process.env.SIGNING_TSA_URL = saved;
    pki.tsa.mode = "ok";
  });
  afterAll(() => pki?.close());

  it("waits (ongoing, nothing stored) while the TSA fails, then completes with a timestamped seal; the audit trail answers 503 then a timestamped PDF", async () => {
    const email = `${unique("bt")}@example.test`;
    const { owner, request } = await draftWithSigners({ signers: [email] });
    ok(await api.activate(owner, request.id));
    expect(ok(await signAll(await tokenFromMail(email))).status).toBe("done");
    const db = await getDb();
    // This test runs the completion itself: the queued job is set aside so no worker seals it meanwhile.
    await db.delete(jobs).where(and(eq(jobs.kind, "signatures.complete"), sql`${jobs.payload}->>'signatureId' = ${String(request.id)}`));

    process.env.SIGNING_TSA_URL = pki.tsaUrl;
    pki.tsa.mode = "error";
    await expect(completeSignatureRequest(db, request.id)).rejects.toMatchObject({ code: "service_unavailable", message: expect.stringMatching(/timestamp authority.*HTTP 500/) });
    const [still] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, request.id));
    expect(still.status).toBe("ongoing");
    const [doc] = await db.select().from(signatureDocuments).where(eq(signatureDocuments.signatureId, request.id));
    expect(doc.fileSignedId).toBeNull();
    expectError(await call(auditRoute.GET, { token: owner.token, params: { signatureId: String(request.id) } }), 503, "service_unavailable");

    pki.tsa.mode = "ok";
    expect(await completeSignatureRequest(db, request.id)).toBe("done");
    const signed = await signedRoute.GET(new Request("http://coffre.test/x", { headers: { authorization: `Bearer ${owner.token}` } }), { params: Promise.resolve({ signatureId: String(request.id) }) });
    expect(signed.status).toBe(200);
    const bytes = new Uint8Array(await signed.arrayBuffer());
    expect(await tokenVerifies(pki, bytes, `signed-${request.id}`)).toContain("Verification: OK");
    const report = await verifyPdf(bytes, { trustCaPem: await signingCaPem(db) });
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Certificate is Trusted.");

    const audit = await auditRoute.GET(new Request("http://coffre.test/x", { headers: { authorization: `Bearer ${owner.token}` } }), { params: Promise.resolve({ signatureId: String(request.id) }) });
    expect(audit.status).toBe(200);
    const trail = new Uint8Array(await audit.arrayBuffer());
    expect(await tokenVerifies(pki, trail, `trail-${request.id}`)).toContain("Verification: OK");
    expect(await verifyPdf(trail)).toContain("Signature is Valid.");
  }, 180_000);
});
