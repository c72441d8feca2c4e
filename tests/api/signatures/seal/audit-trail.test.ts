import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { type AuditTrailInput, renderAuditTrail } from "@/lib/server/signatures/seal/audit-trail-pdf";
import { sealPdf } from "@/lib/server/signatures/seal/seal-pdf";
import { signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";
import { pdfInfo, pdfText, verifyPdf } from "../../../helpers/pdfsig";

const BEFORE = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const AFTER = "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

function input(overrides: Partial<AuditTrailInput> = {}, activityCount = 0): AuditTrailInput {
  const start = Date.UTC(2026, 10, 20, 9, 0, 0);
  const generated = Array.from({ length: activityCount }, (_, i) => ({
    date: new Date(start + (i + 10) * 60_000),
    action: "signer.reminded",
    actor: `Reminder ${i}`,
    address: `198.51.100.${i % 250}`,
    user_agent: `Agent/${i}`,
  }));
  return {
    request: {
      id: 4242,
      name: "Lease agreement — 12 rue des Lilas",
      status: "done",
      initiator: { name: "Alice Martin", email: "alice@example.com" },
      created_at: new Date(start),
      completed_at: new Date(start + 3_600_000),
    },
    documents: [
      { name: "lease.pdf", sha256_before: BEFORE, sha256_after: AFTER },
      { name: "annex.pdf", sha256_before: AFTER, sha256_after: null },
    ],
    actors: [
      { type: "signer", name: "Ελένη Παπαδοπούλου", email: "eleni@example.gr", status: "done", signed_at: new Date(start + 1_800_000) },
      { type: "approver", name: "Иван Петров", email: "ivan@example.ru", status: "opened" },
      { type: "follower", name: "山田太郎", email: "taro@example.jp", status: "notified" },
    ],
    activities: [
      { date: new Date(start + 120_000), action: "signer.link_opened", actor: "Ελένη Παπαδοπούλου", address: "203.0.113.7", user_agent: FIREFOX },
      { date: new Date(start), action: "signature_request.invitationSent", actor: "Alice Martin", address: "192.0.2.1", user_agent: null },
      { date: new Date(start + 1_800_000), action: "signer.signed", actor: "Ελένη Παπαδοπούλου", address: "2001:db8::1", user_agent: `Long/${"x".repeat(600)}` },
      { date: new Date(start + 3_600_000), action: "legacy.event", actor: null, address: null, user_agent: null },
      ...generated,
    ],
    ...overrides,
  };
}

describe("renderAuditTrail", () => {
  it("prints the summary, documents with their SHA-256, participants and every activity, and seals", async () => {
    const pdf = await renderAuditTrail(input());
    const info = await pdfInfo(pdf);
    expect(info["Page size"]).toMatch(/^595\.2\d* x 841\.8\d* pts \(A4\)/);
    expect(info.Encrypted).toBe("no");

    const text = await pdfText(pdf);
    for (const expected of [
      "Audit trail",
      "Lease agreement — 12 rue des Lilas",
      "#4242",
      "Alice Martin <alice@example.com>",
      "2026-11-20T09:00:00Z",
      "2026-11-20T10:00:00Z",
      BEFORE,
      AFTER,
      "not signed yet",
      "Ελένη Παπαδοπούλου",
      "Иван Петров",
      "eleni@example.gr",
      "approver",
      "Signing link opened",
      "Invitation sent",
      "Signed",
      "legacy.event",
      "203.0.113.7",
      "2001:db8::1",
      "Firefox/128.0",
      "2026-11-20T09:02:00Z",
      "Page 1 of 1",
    ]) {
      expect(text, expected).toContain(expected);
    }
    // A script no embedded font covers is shown as "?" rather than breaking the file.
    expect(text).toContain("????");
    // Activities in date order: the invitation (09:00) before the link opened (09:02).
    expect(text.indexOf("Invitation sent")).toBeLessThan(text.indexOf("Signing link opened"));
    // The 600-character user agent wraps inside its column instead of running off the page.
    expect(text.replace(/\s+/g, "")).toContain(`Long/${"x".repeat(100)}`);

    const db = await getDb();
    const sealed = await sealPdf(db, pdf, { reason: "Audit trail of signature request 4242" });
    const report = await verifyPdf(sealed, { trustCaPem: await signingCaPem(db) });
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Total document signed");
    expect(report).toContain("Certificate is Trusted.");
  }, 120_000);

  it("runs a long history over as many pages as it needs, every activity printed", async () => {
    const pdf = await renderAuditTrail(input({}, 150));
    const pages = Number((await pdfInfo(pdf)).Pages);
    expect(pages).toBeGreaterThanOrEqual(3);
    const text = await pdfText(pdf);
    for (let i = 0; i < 150; i++) expect(text).toContain(`Agent/${i}`);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    // The table header is repeated on each page the activities run onto.
    expect(text.split("User agent").length - 1).toBeGreaterThanOrEqual(pages - 1);
  });

  it("speaks French when asked", async () => {
    const text = await pdfText(await renderAuditTrail(input({ locale: "fr" })));
    for (const expected of ["Piste d'audit", "Demande de signature", "Lien de signature ouvert", "SHA-256 avant signature", "signataire", "terminé", "Page 1 sur 1"]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain("Signing link opened");
  });

  it("prints an empty history and no documents without failing", async () => {
    const text = await pdfText(await renderAuditTrail(input({ documents: [], actors: [], activities: [] })));
    expect(text).toContain("Activities");
    expect(text).toContain("—");
  });
});
