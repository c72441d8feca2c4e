import { expect, test } from "@playwright/test";
import { pdfWithText } from "./fixtures";
import { adminApi, screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);

test("an outside signer on a phone: full-width pages, one field at a time in the field step, the pad on the whole screen sideways", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  // A web sign-in first (see signatures.spec.ts: the auth secret's first use on PGlite).
  await signInAsAdmin(page);
  const folder = await seedFolder(request, `Lease ${suffix()}`, [{ name: "lease.pdf", mimeType: "application/pdf", buffer: pdfWithText("Lease agreement") }]);
  const email = `ada.${suffix()}@outside.test`;
  const { headers, end } = await adminApi(request);
  const content = await (await request.get(`/api/folder/${folder.id}?depth=0`, { headers })).json();
  const created = await (await request.post("/api/signatures", { headers, data: { name: `Lease ${suffix()}`, mode: "parallel" } })).json();
  const document = await (await request.post(`/api/signatures/${created.id}/documents/${content.content.files[0].id}`, { headers, data: {} })).json();
  const signer = await (await request.post(`/api/signatures/${created.id}/actors`, { headers, data: { type: "signer", infos: { email, first_name: "Ada", last_name: "Lovelace" } } })).json();
  const fields = [
    { type: "text", page: 1, x: 72, y: 500, width: 160, height: 20, signer_id: signer.id, question: "City" },
    { type: "dropdown", page: 1, x: 72, y: 400, width: 160, height: 20, signer_id: signer.id, question: "Term", options: ["Monthly", "Yearly"] },
    { type: "signature", page: 1, x: 72, y: 100, signer_id: signer.id },
  ];
  for (const field of fields) expect((await request.post(`/api/signatures/${created.id}/documents/${document.id}/fields`, { headers, data: field })).status()).toBe(201);
  const activated = await (await request.post(`/api/signatures/${created.id}/activate`, { headers, data: {} })).json();
  const link = new URL(activated.actors.find((a: { email: string }) => a.email === email).link).pathname;
  await end();

  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const phone = await context.newPage();
  await phone.goto(link);
  // The page takes the screen's width, and nothing scrolls sideways.
  const sheet = phone.getByRole("region", { name: /lease\.pdf, page 1/ });
  await expect(sheet).toBeVisible();
  expect((await sheet.boundingBox())!.width).toBeGreaterThanOrEqual(370);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // One field at a time, at full size, in reading order: the city (higher on the page), the term, the signature.
  const step = phone.getByTestId("field-step");
  await expect(step).toContainText("Field 1 of 3 · City");
  const city = step.getByRole("textbox", { name: "City" });
  expect((await city.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await city.fill("Lyon");
  await step.getByRole("button", { name: "Next field" }).click();
  await expect(step).toContainText("Field 2 of 3 · Term");
  const term = step.getByRole("combobox", { name: "Term" });
  await expect(term).toBeFocused();
  await term.selectOption("Yearly");
  await screenshot(phone, "sign-phone-step");
  await step.getByRole("button", { name: "Next field" }).click();
  await expect(step).toContainText("Field 3 of 3");
  await expect(phone.getByTestId("sign-progress")).toHaveText("2 of 3 required fields completed");
  await step.getByRole("button", { name: "Previous field" }).click();
  await expect(step.getByRole("combobox", { name: "Term" })).toHaveValue("Yearly");
  await step.getByRole("button", { name: "Next field" }).click();
  await expect(step).toContainText("Field 3 of 3");

  // Sideways the page is wide enough for its own fields (no step); the pad takes the whole screen and its drawing area most of it.
  await phone.setViewportSize({ width: 844, height: 390 });
  await expect(step).toBeHidden();
  await phone.getByTestId("sign-field-signature").click();
  const pad = phone.getByRole("dialog", { name: "Your signature" });
  await expect(pad).toBeVisible();
  const padBox = (await pad.boundingBox())!;
  expect(padBox.width).toBeGreaterThanOrEqual(840);
  expect(padBox.height).toBeGreaterThanOrEqual(385);
  // The drawing area is whole on screen, above the sheet's buttons, and wider than the upright pad (480 px).
  const canvas = phone.getByTestId("signature-canvas");
  const area = (await canvas.boundingBox())!;
  expect(area.width).toBeGreaterThan(480);
  expect(area.y + area.height).toBeLessThanOrEqual((await pad.getByTestId("signature-adopt").boundingBox())!.y);
  await phone.mouse.move(area.x + area.width * 0.1, area.y + area.height * 0.6);
  await phone.mouse.down();
  for (const [fx, fy] of [[0.3, 0.3], [0.5, 0.7], [0.8, 0.4]]) await phone.mouse.move(area.x + area.width * fx, area.y + area.height * fy, { steps: 5 });
  await phone.mouse.up();
  await screenshot(phone, "sign-phone-pad-landscape");
  await pad.getByTestId("signature-adopt").click();
  await expect(pad).toBeHidden();

  await phone.setViewportSize({ width: 390, height: 844 });
  await expect(phone.getByTestId("sign-progress")).toHaveText("3 of 3 required fields completed");
  await phone.getByTestId("sign-submit").click();
  await expect(phone.getByTestId("sign-finished")).toBeVisible();
  await screenshot(phone, "sign-phone-done");
  await context.close();
});
