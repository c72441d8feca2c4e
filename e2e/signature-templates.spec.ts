import { expect, test } from "@playwright/test";
import { pdfWithText } from "./fixtures";
import { adminApi, screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);

test("a template with five field types is saved from a draft, reused for a new request with a new signer, and signed", async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  await signInAsAdmin(page);
  const folder = await seedFolder(request, `Leases ${suffix()}`, [{ name: "lease.pdf", mimeType: "application/pdf", buffer: pdfWithText("Lease agreement") }]);
  const { headers, end } = await adminApi(request);
  const content = await (await request.get(`/api/folder/${folder.id}?depth=0`, { headers })).json();
  const templateName = `Lease ${suffix()}`;
  const draft = await (await request.post("/api/signatures", { headers, data: { name: templateName } })).json();
  const document = await (await request.post(`/api/signatures/${draft.id}/documents/${content.content.files[0].id}`, { headers, data: {} })).json();
  const role = await (await request.post(`/api/signatures/${draft.id}/actors`, { headers, data: { type: "signer", infos: { email: `tenant.${suffix()}@outside.test`, first_name: "Tenant", last_name: "Role" } } })).json();
  const fields = [
    { type: "signature", page: 1, x: 72, y: 100 },
    { type: "full_name", page: 1, x: 72, y: 560 },
    { type: "date_signed", page: 1, x: 320, y: 560 },
    { type: "number", page: 1, x: 72, y: 480, question: "Monthly rent" },
    { type: "dropdown", page: 1, x: 320, y: 480, options: ["Furnished", "Unfurnished"], question: "Kind of lease" },
    { type: "initials", page: 1, x: 400, y: 100 },
  ];
  for (const field of fields) expect((await request.post(`/api/signatures/${draft.id}/documents/${document.id}/fields`, { headers, data: { ...field, signer_id: role.id } })).status()).toBe(201);

  // Saved as a template from the builder.
  await page.goto(`/signatures/${draft.id}/edit`);
  await page.getByRole("button", { name: "Save as template", exact: true }).click();
  await expect(page.getByText(`Saved as the template “${templateName}”.`)).toBeVisible();

  // A new request from it: the role given to someone else.
  const signer = `bob.${suffix()}@outside.test`;
  await page.goto("/signatures/new");
  const start = page.getByTestId("template-start");
  await start.getByLabel("Template", { exact: true }).selectOption({ label: templateName });
  await page.getByLabel("Name of the request").fill(`${templateName} for Bob`);
  const roleBox = start.getByRole("group", { name: "Role 1: Signer" });
  await roleBox.getByLabel("Email of the person").fill(signer);
  await roleBox.getByLabel("Their first name").fill("Bob");
  await roleBox.getByLabel("Their last name").fill("Tenant");
  await screenshot(page, "signature-template-start");
  await start.getByTestId("use-template").click();
  await expect(page).toHaveURL(/\/signatures\/\d+\/edit$/);
  const requestId = Number(/\/signatures\/(\d+)\/edit/.exec(page.url())![1]);
  await expect(page.getByTestId("placed-field")).toHaveCount(fields.length);
  await screenshot(page, "signature-template-builder", { show: page.getByTestId("builder-page-overlay") });
  await page.getByTestId("send-request").click();
  await expect(page).toHaveURL(new RegExp(`/signatures/${requestId}$`));

  const sent = await (await request.get(`/api/signatures/${requestId}`, { headers })).json();
  expect(sent.actors.map((a: { email: string }) => a.email)).toEqual([signer]);
  const link = new URL(sent.actors[0].link).pathname;

  // Bob signs: the platform fills his name and the date; he answers the number and the dropdown.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(link);
  await expect(visitor.getByTestId("sign-field-full_name")).toHaveText("Bob Tenant");
  await visitor.getByRole("textbox", { name: "Monthly rent" }).fill("850.50");
  await visitor.getByRole("combobox", { name: "Kind of lease" }).selectOption("Furnished");
  await visitor.getByTestId("sign-field-signature").click();
  const pad = visitor.getByRole("dialog", { name: "Your signature" });
  await pad.getByRole("button", { name: "Type" }).click();
  await pad.getByLabel("Your name as signature").press("Enter");
  await expect(pad).toBeHidden();
  await expect(visitor.getByTestId("sign-field-initials")).toHaveText("BT");
  await screenshot(visitor, "signature-template-signing", { show: visitor.getByTestId("sign-field-full_name") });
  await visitor.getByTestId("sign-submit").click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Thank you, your signature is recorded");
  await visitor.context().close();

  await expect.poll(async () => (await (await request.get(`/api/signatures/${requestId}`, { headers })).json()).status, { timeout: 90_000 }).toBe("done");
  const done = await (await request.get(`/api/signatures/${requestId}?full=1`, { headers })).json();
  const values = Object.fromEntries(done.documents[0].fields.map((f: { type: string; value: unknown }) => [f.type, f.value]));
  expect(values).toMatchObject({ full_name: "Bob Tenant", number: "850.5", dropdown: "Furnished", initials: "BT", signature: true });
  await end();
});
