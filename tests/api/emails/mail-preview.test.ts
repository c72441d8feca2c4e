import { beforeAll, describe, expect, it } from "vitest";
import * as emailRoute from "@/app/api/email/[emailId]/route";
import * as previewRoute from "@/app/api/email/preview/route";
import * as createRoute from "@/app/api/email/route";
import { getDb } from "@/db";
import { ALERT_PLACEHOLDERS, previewEmailResponse } from "@/lib/contracts/emails";
import { createAdmin, createTestUser, type TestUser } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";

beforeAll(async () => {
  await getDb();
}, 180_000);

const TEMPLATE = { object: "News in {{folder}}", content: "Hello {{recipient}},\n\n{{actor}} changed {{file}}:\n{{changes}}\n{{link}}" };
const create = (user: TestUser, body: Record<string, unknown>) => call(createRoute.POST, { method: "POST", token: user.token, body });
const update = (user: TestUser, id: number, body: Record<string, unknown>) => call(emailRoute.PUT, { method: "PUT", token: user.token, params: { emailId: String(id) }, body });
const preview = (token: string | null, body: Record<string, unknown>) => call(previewRoute.POST, { method: "POST", path: "/api/email/preview", token, body });

describe("unknown placeholders in alert templates", () => {
  it("are named in the error and in machine-readable details, with the allowed ones", async () => {
    const user = await createTestUser();
    const res = await create(user, { ...TEMPLATE, content: "Hi {{user}}, see {{ link }} and {{user}} again" });
    expectError(res, 400, "invalid_request");
    expect(res.body.error).toBe(`Unknown placeholder {{user}} in content; allowed: ${ALERT_PLACEHOLDERS.map((n) => `{{${n}}}`).join(", ")}`);
    expect(res.body.details).toEqual([
      { path: "content", message: expect.stringContaining("{{user}}"), code: "unknown_placeholder", placeholders: ["user"], allowed: [...ALERT_PLACEHOLDERS] },
    ]);

    const both = await create(user, { object: "For {{User}}", content: "{{who}} and {{what}}" });
    expectError(both, 400, "invalid_request");
    expect(both.body.error).toMatch(/^Unknown placeholders \{\{User\}\} in object, \{\{who\}\}, \{\{what\}\} in content; allowed: /);
    expect(both.body.details.map((d: { path: string; placeholders: string[] }) => [d.path, d.placeholders])).toEqual([
      ["object", ["User"]],
      ["content", ["who", "what"]],
    ]);
  });

  it("are named on update too, and the template stays as it was", async () => {
    const user = await createTestUser();
    const made = await create(user, TEMPLATE);
    expect(made.status, made.text).toBe(201);
    const res = await update(user, made.body.id, { content: "Dear {{name}}" });
    expectError(res, 400, "invalid_request");
    expect(res.body.error).toMatch(/^Unknown placeholder \{\{name\}\} in content; allowed: \{\{recipient\}\}/);
    expect(res.body.details[0]).toMatchObject({ path: "content", code: "unknown_placeholder", placeholders: ["name"] });
  });

  it("refuses a subject with direction overrides and a text with NUL (400)", async () => {
    const user = await createTestUser();
    expectError(await create(user, { ...TEMPLATE, object: "Invoice \u202Efdp.exe" }), 400, "invalid_request");
    expectError(await create(user, { ...TEMPLATE, content: "Hello\u0000{{recipient}}" }), 400, "invalid_request");
  });
});

describe("POST /api/email/preview", () => {
  it("renders a template through the mail renderer with sample values, HTML escaped", async () => {
    const admin = await createAdmin({ language: "en" });
    const res = await preview(admin.token, { object: "News in {{folder}}", content: "Hello {{recipient}} <script>alert(1)</script>\n\n{{changes}}\n\n{{link}}" });
    expect(res.status, res.text).toBe(200);
    const body = previewEmailResponse.strict().parse(res.body);
    const sample = Object.fromEntries(body.samples.map((s) => [s.name, s.value]));
    expect(body.samples.map((s) => s.name)).toEqual([...ALERT_PLACEHOLDERS]);
    expect(sample.folder).not.toBe("");
    expect(body.subject).toBe(`News in ${sample.folder}`);
    expect(body.text).toContain(`Hello ${sample.recipient} <script>`);
    expect(body.text).toContain(`New file "${sample.file}" in ${sample.folder}`);
    expect(body.html).not.toContain("<script>");
    expect(body.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(body.html).toContain(`<a href="${sample.link}">`);
    expect(body.text).not.toMatch(/\{\{/);
  });

  it("uses the sample values of the language asked, and previews the default mail when empty", async () => {
    const admin = await createAdmin({ language: "en" });
    const res = await preview(admin.token, { language: "fr" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.text).toMatch(/^Bonjour /);
    expect(res.body.text).toContain("Nouveau fichier");
  });

  it("names an unknown placeholder as saving would (400)", async () => {
    const admin = await createAdmin();
    const res = await preview(admin.token, { object: "Hi", content: "Hello {{user}}" });
    expectError(res, 400, "invalid_request");
    expect(res.body.error).toMatch(/^Unknown placeholder \{\{user\}\} in content/);
    expect(res.body.details[0]).toMatchObject({ code: "unknown_placeholder", placeholders: ["user"] });
    expectError(await preview(admin.token, { content: "x".repeat(100_001) }), 400, "invalid_request");
    expectError(await preview(admin.token, { content: "a\u0000b" }), 400, "invalid_request");
  });

  it("is for administrators only: users and managers get 403, no token 401", async () => {
    const user = await createTestUser();
    const manager = await createTestUser({ role: 4 });
    const options = { method: "POST", path: "/api/email/preview", body: TEMPLATE };
    await expectRefusedFor(user.token, previewRoute.POST, options);
    await expectRefusedFor(manager.token, previewRoute.POST, options);
    await expectAuthRequired(previewRoute.POST, options);
  });
});
