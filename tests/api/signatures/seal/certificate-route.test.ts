import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as certificateRoute from "@/app/api/signatures/certificate/route";
import { getDb } from "@/db";
import { sealPdf } from "@/lib/server/signatures/seal/seal-pdf";
import { signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";
import { createExpiredToken, createTestUser } from "../../../helpers/factories";
import { call, expectError } from "../../../helpers/http";
import { onePagePdf } from "../../../helpers/pdf-fixtures";
import { verifyPdf } from "../../../helpers/pdfsig";

const path = "/api/signatures/certificate";

describe("GET /api/signatures/certificate", () => {
  it("serves the CA that vouches for the seal, as a PEM download, without a token", async () => {
    const res = await call(certificateRoute.GET, { path });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-pem-file");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="coffre-signing-ca.pem"');
    expect(res.text).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/);
    const ca = new X509Certificate(res.text);
    expect(ca.subject).toBe("CN=Coffre signing CA\nO=Coffre");
    expect(ca.ca).toBe(true);

    const db = await getDb();
    expect(res.text).toBe(await signingCaPem(db));
    const sealed = await sealPdf(db, await onePagePdf(), { reason: "Test" });
    const report = await verifyPdf(sealed, { trustCaPem: res.text });
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Certificate is Trusted.");
  }, 120_000);

  it("is public: a signed-in user, and even an expired token, get the same certificate", async () => {
    const anonymous = await call(certificateRoute.GET, { path });
    const user = await createTestUser();
    const signedIn = await call(certificateRoute.GET, { path, token: user.token });
    const expired = await call(certificateRoute.GET, { path, token: await createExpiredToken(user.id) });
    expect(signedIn.status).toBe(200);
    expect(expired.status).toBe(200);
    expect(signedIn.text).toBe(anonymous.text);
    expect(expired.text).toBe(anonymous.text);
  }, 120_000);

  it("answers other methods with 405 and Allow", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      const res = await call(certificateRoute[method], { path, method, body: {} });
      expectError(res, 405, "method_not_allowed");
      expect(res.headers.get("allow")).toContain("GET");
    }
  });
});
