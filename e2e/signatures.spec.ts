import { readFileSync, writeFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Download, type Page } from "@playwright/test";
import { pdfWithPages, pdfWithText } from "./fixtures";
import { adminApi, createUser, screenshot, seedFolder, signIn, signInAsAdmin } from "./helpers";
import { receivedMails, type E2eMail } from "./mailbox";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

/** A mail's text whatever its transfer encoding (quoted-printable or base64 parts). */
function mailText(mail: E2eMail): string {
  const quoted = mail.raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const base64Parts = [...mail.raw.matchAll(/Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi)].map((m) => Buffer.from(m[1].replace(/\s/g, ""), "base64").toString("utf8"));
  return [quoted, ...base64Parts].join("\n");
}

/** The signing link mailed to `address` (BASE_URL/sign/<token>), as a path of the e2e server. */
async function signingLinkFor(address: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        for (const mail of receivedMails().filter((m) => m.to.includes(address))) {
          const found = /https?:\/\/[^\s"'<>]+(\/sign\/[A-Za-z0-9._~-]+)/.exec(mailText(mail));
          if (found) link = found[1];
        }
        return link;
      },
      { timeout: 30_000, message: `a signing link mailed to ${address}` },
    )
    .toBeTruthy();
  return link!;
}

/** The last one-time signing code mailed to `address` (advanced level, no phone: the code comes by mail). */
async function signingCodeFor(address: string, after: number): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      () => {
        const mails = receivedMails().filter((m) => m.to.includes(address)).slice(after);
        for (const mail of mails) code = /\bis (\d{6})\b/.exec(mailText(mail))?.[1] ?? code;
        return code;
      },
      { timeout: 30_000, message: `a code mailed to ${address}` },
    )
    .toBeTruthy();
  return code!;
}

/** Messages of the page that say the Content-Security-Policy refused something (pdf.js, its worker, fonts). */
function watchCsp(page: Page): string[] {
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}

/** axe-core's serious and critical findings, as in accessibility.spec.ts. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

const downloaded = async (download: Download) => readFileSync(await download.path());

/** A stroke drawn with the mouse across the signature pad's canvas. */
async function drawSignature(page: Page) {
  const canvas = page.getByTestId("signature-canvas");
  const box = (await canvas.boundingBox())!;
  const at = (fx: number, fy: number) => [box.x + box.width * fx, box.y + box.height * fy] as const;
  await page.mouse.move(...at(0.1, 0.6));
  await page.mouse.down();
  for (const [fx, fy] of [
    [0.2, 0.3],
    [0.3, 0.7],
    [0.4, 0.35],
    [0.5, 0.65],
    [0.6, 0.3],
    [0.75, 0.6],
    [0.9, 0.45],
  ])
    await page.mouse.move(...at(fx, fy), { steps: 4 });
  await page.mouse.up();
}

test("a PDF is sent for signature from the file browser, signed with a drawn signature by an outside signer, and the signed PDF and audit trail downloaded", async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const folderName = `Contracts ${suffix()}`;
  const folder = await seedFolder(request, folderName, []);
  const signer = `ada.${suffix()}@outside.test`;

  // The administrator uploads the PDF through the browser.
  const builderRefused = watchCsp(page);
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  // The list is drawn by the client: once it says the folder is empty, the drop zone listens.
  await expect(page.getByText("This folder is empty.")).toBeVisible();
  await page.getByTestId("upload-input").setInputFiles({ name: "lease.pdf", mimeType: "application/pdf", buffer: pdfWithText("Lease agreement: signed below") });
  await expect(row(page, "lease.pdf")).toBeVisible({ timeout: 30_000 });

  // The item menu of the PDF opens the builder with it.
  await row(page, "lease.pdf").click({ button: "right" });
  await page.getByRole("menu").getByRole("menuitem", { name: "Request signatures" }).click();
  await expect(page).toHaveURL(/\/signatures\/new\?file=\d+$/);
  await expect(page.getByTestId("new-document")).toHaveText("Document: lease.pdf");
  await expect(page.getByLabel("Name of the request")).toHaveValue("lease");
  await page.getByLabel("Name of the request").fill(`Lease ${folderName}`);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/signatures\/\d+\/edit$/);
  const requestId = Number(/\/signatures\/(\d+)\/edit$/.exec(page.url())![1]);
  await expect(page.getByTestId("builder-document")).toHaveText(/lease\.pdf/);

  // An outside signer.
  const people = page.getByRole("form", { name: "Add" });
  await people.getByLabel("First name").fill("Ada");
  await people.getByLabel("Last name").fill("Lovelace");
  await people.getByLabel("Email").fill(signer);
  await people.getByRole("button", { name: "Add" }).click();
  await expect(page.getByTestId("builder-actor")).toHaveCount(1);
  await expect(page.getByTestId("builder-actor")).toContainText("Ada Lovelace");

  // A signature field dragged from the palette onto the page (pdf.js paints it first).
  const overlay = page.getByTestId("builder-page-overlay");
  await expect(overlay).toBeVisible();
  await expect(page.locator("section[data-painted]")).toHaveCount(1, { timeout: 20_000 });
  const target = (await overlay.boundingBox())!;
  await page.getByTestId("palette-signature").dragTo(overlay, { targetPosition: { x: target.width * 0.5, y: target.height * 0.75 } });
  const field = page.getByTestId("placed-field");
  await expect(field).toHaveCount(1);
  await expect(field).toHaveAccessibleName(/^Signature field for Ada Lovelace, page 1/);
  // Dropped in the lower half: less than half the page's 792 points from the bottom.
  const placed = (await (await request.get(`/api/signatures/${requestId}?full=1`, { headers: (await adminApi(request)).headers })).json()).documents[0].fields[0];
  expect(placed.type).toBe("signature");
  expect(placed.y).toBeLessThan(396);
  expect(placed.x).toBeGreaterThan(150);
  // The invitation's own subject and message (issue 31), saved with the settings before sending.
  await page.getByTestId("invitation-subject").fill(`Your lease ${folderName}`);
  await page.getByTestId("invitation-message").fill("Hello Ada,\nplease sign <today> & thanks.");
  await page.getByRole("button", { name: "Save the settings" }).click();
  await expect(page.getByText("Saved.", { exact: true })).toBeVisible();
  await screenshot(page, "signature-builder", { fullPage: true });
  expect(await seriousViolations(page), "builder").toEqual([]);

  expect(builderRefused).toEqual([]);
  await page.getByTestId("send-request").click();
  await expect(page).toHaveURL(new RegExp(`/signatures/${requestId}$`));
  await expect(page.getByTestId("request-status")).toHaveText("In progress");
  await expect(page.getByTestId("request-actor")).toContainText("Invited");
  await screenshot(page, "signature-request-ongoing", { fullPage: true });
  expect(await seriousViolations(page), "request page").toEqual([]);

  // The signer opens the mailed link in a browser with no session; the mail has the subject and message written above.
  const link = await signingLinkFor(signer);
  const invitation = receivedMails().find((m) => m.to.includes(signer))!;
  expect(mailText(invitation)).toContain("please sign <today> & thanks.");
  expect(mailText(invitation)).toContain("please sign &lt;today&gt; &amp; thanks.");
  expect(invitation.raw).toMatch(/Subject: Your lease/);
  const visitor = await (await browser.newContext()).newPage();
  const refused = watchCsp(visitor);
  await visitor.goto(link);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(`Lease ${folderName}`);
  await expect(visitor.getByRole("navigation", { name: "Main navigation" })).toHaveCount(0);
  const signatureField = visitor.getByTestId("sign-field-signature");
  await expect(signatureField).toBeVisible();
  await expect(visitor.getByTestId("sign-progress")).toHaveText("0 of 1 required fields completed");
  await expect(visitor.locator("section[data-painted]")).toHaveCount(1, { timeout: 20_000 });
  // The action bar stays at the bottom of the window: a window-sized picture shows it where the signer sees it.
  await screenshot(visitor, "sign-page");
  expect(await seriousViolations(visitor), "sign page").toEqual([]);

  // "Next field" leads to the signature field; Enter opens the pad; the mouse draws.
  await visitor.getByTestId("next-field").click();
  await expect(signatureField).toBeFocused();
  await visitor.keyboard.press("Enter");
  const pad = visitor.getByRole("dialog", { name: "Your signature" });
  await expect(pad).toBeVisible();
  await drawSignature(visitor);
  await screenshot(visitor, "sign-pad-drawn");
  await pad.getByRole("button", { name: "Use this signature" }).click();
  await expect(pad).toBeHidden();
  await expect(signatureField.getByRole("img", { name: "Your signature" })).toBeVisible();
  await expect(visitor.getByTestId("sign-progress")).toHaveText("1 of 1 required fields completed");
  await screenshot(visitor, "sign-page-ready", { show: signatureField });
  await visitor.getByTestId("sign-submit").click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Thank you, your signature is recorded");
  await screenshot(visitor, "sign-done");
  // pdf.js, its worker and the signature script font work within the pages' policy as it is.
  expect(refused).toEqual([]);

  // The link worked once.
  await visitor.goto(link);
  await expect(visitor.getByRole("main").getByRole("alert")).toHaveText("This link was already used: the documents are signed or approved.");
  await screenshot(visitor, "sign-link-used");
  await visitor.context().close();

  // Back as the initiator: the request completes (stamped and sealed by a job), then the results download.
  await expect(page.getByTestId("request-status")).toHaveText("Signed", { timeout: 90_000 });
  await expect(page.getByTestId("request-actor")).toContainText("Done");
  const [signed] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-signed").click()]);
  const signedBytes = await downloaded(signed);
  expect(signedBytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(signedBytes.includes(Buffer.from("/ByteRange"))).toBe(true);
  writeFileSync(test.info().outputPath("signed.pdf"), signedBytes);
  const [audit] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-audit").click()]);
  expect((await downloaded(audit)).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  await expect(page.getByTestId("activities")).toContainText("Signed");
  // The history names who sent it (the administrator) and to whom, each as such.
  await expect(page.getByTestId("activity").filter({ hasText: "Ada Lovelace" }).first()).toContainText(/by .+ · to Ada Lovelace/);
  await screenshot(page, "signature-request-done", { fullPage: true });
  // The signer's copy: the sealed PDF and the sealed audit trail attached.
  await expect
    .poll(() => receivedMails().find((m) => m.to.includes(signer) && /Content-Disposition: attachment/i.test(m.raw))?.raw ?? "", { timeout: 30_000 })
    .toMatch(/filename="?lease \(signed\)\.pdf/);
  const copy = receivedMails().find((m) => m.to.includes(signer) && /Content-Disposition: attachment/i.test(m.raw))!.raw;
  expect(copy.match(/Content-Disposition: attachment/gi)).toHaveLength(2);

  // The list shows it signed.
  await page.goto("/signatures");
  await expect(row(page, `Lease ${folderName}`).getByTestId("request-status")).toHaveText("Signed");
  await screenshot(page, "signatures-list");
  expect(await seriousViolations(page), "list").toEqual([]);
});

test("fields are placed with the keyboard alone: a palette button adds one, arrow keys move it, the form sets its place, and copies it to every page", async ({ page, request }) => {
  const folder = await seedFolder(request, `Keyboard ${suffix()}`, [{ name: "form.pdf", mimeType: "application/pdf", buffer: pdfWithPages(["Form", "Form, page 2", "Form, page 3"]) }]);
  const { headers, end } = await adminApi(request);
  const content = await (await request.get(`/api/folder/${folder.id}?depth=0`, { headers })).json();
  const created = await (await request.post("/api/signatures", { headers, data: { name: `Keyboard request ${suffix()}` } })).json();
  expect((await request.post(`/api/signatures/${created.id}/documents/${content.content.files[0].id}`, { headers, data: {} })).status()).toBe(201);
  expect((await request.post(`/api/signatures/${created.id}/actors`, { headers, data: { type: "signer", infos: { email: "grace@outside.test", first_name: "Grace", last_name: "Hopper" } } })).status()).toBe(201);

  await signInAsAdmin(page);
  await page.goto(`/signatures/${created.id}/edit`);
  await page.getByRole("button", { name: "Add a Text field" }).focus();
  await page.keyboard.press("Enter");
  const field = page.getByTestId("placed-field");
  await expect(field).toHaveCount(1);
  await expect(field).toBeFocused();
  // Centred on the 612×792 page: a 180×24 text field starts at x 216, y 384.
  await expect(field).toHaveAccessibleName("Text field for Grace Hopper, page 1, 216 pt from the left, 384 pt from the bottom");
  await page.keyboard.press("Shift+ArrowRight");
  await page.keyboard.press("ArrowUp");
  await expect(field).toHaveAccessibleName("Text field for Grace Hopper, page 1, 226 pt from the left, 385 pt from the bottom");
  const form = page.getByTestId("field-form");
  await form.getByLabel("From the left (pt)").fill("72");
  await form.getByLabel("From the bottom (pt)").fill("100");
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(field).toHaveAccessibleName("Text field for Grace Hopper, page 1, 72 pt from the left, 100 pt from the bottom");
  // Outside the page: refused in the form, nothing sent.
  await form.getByLabel("From the left (pt)").fill("600");
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(form.getByText("The field must stay inside the page.")).toBeVisible();
  await expect
    .poll(async () => {
      const body = await (await request.get(`/api/signatures/${created.id}?full=1`, { headers })).json();
      const saved = body.documents[0].fields[0];
      return `${saved.x},${saved.y}`;
    })
    .toBe("72,100");
  await screenshot(page, "signature-builder-keyboard", { show: field });
  // The same field on every page, at the same place.
  await form.getByLabel("From the left (pt)").fill("72");
  await form.getByRole("button", { name: "Copy to every page" }).click();
  await expect
    .poll(async () => {
      const body = await (await request.get(`/api/signatures/${created.id}?full=1`, { headers })).json();
      return body.documents[0].fields.map((f: { page: number; x: number; y: number }) => `${f.page}:${f.x},${f.y}`).sort();
    })
    .toEqual(["1:72,100", "2:72,100", "3:72,100"]);
  await end();
});

test("a signing link that is unknown, or of a cancelled request, says so in plain words", async ({ page, request, browser }) => {
  await page.goto("/sign/1.bm9ub25jZQ.bm90LWEtbWFj");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("This signing link does not exist, or it is not your turn to sign yet.");

  const folder = await seedFolder(request, `Cancelled ${suffix()}`, [{ name: "memo.pdf", mimeType: "application/pdf", buffer: pdfWithText("Memo") }]);
  const { headers, end } = await adminApi(request);
  const content = await (await request.get(`/api/folder/${folder.id}?depth=0`, { headers })).json();
  const created = await (await request.post("/api/signatures", { headers, data: { name: `Memo ${suffix()}` } })).json();
  const document = await (await request.post(`/api/signatures/${created.id}/documents/${content.content.files[0].id}`, { headers, data: {} })).json();
  const actor = await (await request.post(`/api/signatures/${created.id}/actors`, { headers, data: { type: "signer", infos: { email: "linus@outside.test", first_name: "Linus", last_name: "T" } } })).json();
  expect((await request.post(`/api/signatures/${created.id}/documents/${document.id}/fields`, { headers, data: { type: "signature", page: 1, x: 72, y: 72, signer_id: actor.id } })).status()).toBe(201);
  const activated = await (await request.post(`/api/signatures/${created.id}/activate`, { headers, data: {} })).json();
  const link = new URL(activated.actors[0].link).pathname;
  await end();

  await signInAsAdmin(page);
  await page.goto(`/signatures/${created.id}`);
  await page.getByRole("button", { name: "Cancel the request" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel this request?" });
  await dialog.getByRole("button", { name: "Cancel the request" }).click();
  await expect(page.getByTestId("request-status")).toHaveText("Cancelled");

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(link);
  await expect(visitor.getByRole("main").getByRole("alert")).toHaveText("This signature request was cancelled by its sender.");
  await screenshot(visitor, "sign-link-cancelled");
  expect(await seriousViolations(visitor), "closed link").toEqual([]);
  await visitor.context().close();
});

test("advanced level, keyboard alone: a signer checks a box, fills a text, types a signature and confirms with a mailed code; an approver approves with a code", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  // A web sign-in first: on PGlite, an activation that is the server's first use of the auth
  // secret waits forever (the secret is read outside the activation's transaction, on the one
  // connection that transaction holds). Reported to the signature API; this journey is not about it.
  await signInAsAdmin(page);
  const folder = await seedFolder(request, `Terms ${suffix()}`, [{ name: "terms.pdf", mimeType: "application/pdf", buffer: pdfWithText("Terms of service") }]);
  const signerEmail = `grace.${suffix()}@outside.test`;
  const approverEmail = `alan.${suffix()}@outside.test`;
  const { headers, end } = await adminApi(request);
  const content = await (await request.get(`/api/folder/${folder.id}?depth=0`, { headers })).json();
  const created = await (await request.post("/api/signatures", { headers, data: { name: `Terms ${suffix()}`, mode: "parallel", level: "advanced_electronic_signature" } })).json();
  const document = await (await request.post(`/api/signatures/${created.id}/documents/${content.content.files[0].id}`, { headers, data: {} })).json();
  const signer = await (await request.post(`/api/signatures/${created.id}/actors`, { headers, data: { type: "signer", infos: { email: signerEmail, first_name: "Grace", last_name: "Hopper" } } })).json();
  expect((await request.post(`/api/signatures/${created.id}/actors`, { headers, data: { type: "approver", infos: { email: approverEmail, first_name: "Alan", last_name: "Turing" } } })).status()).toBe(201);
  const fields = [
    { type: "signature", page: 1, x: 72, y: 100, signer_id: signer.id },
    { type: "text", page: 1, x: 72, y: 300, width: 180, height: 24, signer_id: signer.id, question: "City" },
    // A checkbox has no label of its own (the contract gives it none): the page's text beside it says what it means.
    { type: "checkbox", page: 1, x: 72, y: 400, signer_id: signer.id },
  ];
  for (const field of fields) expect((await request.post(`/api/signatures/${created.id}/documents/${document.id}/fields`, { headers, data: field })).status()).toBe(201);
  const activated = await (await request.post(`/api/signatures/${created.id}/activate`, { headers, data: {} })).json();
  const linkOf = (email: string) => new URL(activated.actors.find((a: { email: string }) => a.email === email).link).pathname;

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(linkOf(signerEmail));
  const next = visitor.getByTestId("next-field");
  await expect(visitor.getByTestId("sign-progress")).toHaveText("0 of 3 required fields completed");
  // Reading order: the checkbox (highest on the page), the text, then the signature.
  await next.press("Enter");
  await expect(visitor.getByRole("checkbox", { name: "Required checkbox, page 1" })).toBeFocused();
  await visitor.keyboard.press("Space");
  await next.press("Enter");
  await expect(visitor.getByRole("textbox", { name: "City" })).toBeFocused();
  await visitor.keyboard.type("Arlington");
  await next.press("Enter");
  await expect(visitor.getByTestId("sign-field-signature")).toBeFocused();
  await visitor.keyboard.press("Enter");
  const pad = visitor.getByRole("dialog", { name: "Your signature" });
  await expect(pad.getByRole("button", { name: "Draw" })).toBeFocused();
  await visitor.keyboard.press("Tab");
  await visitor.keyboard.press("Enter");
  await expect(pad.getByLabel("Your name as signature")).toHaveValue("Grace Hopper");
  await pad.getByLabel("Your name as signature").press("Enter");
  await expect(pad).toBeHidden();
  await expect(visitor.getByTestId("sign-progress")).toHaveText("3 of 3 required fields completed");
  await expect(visitor.getByTestId("sign-field-signature")).toContainText("Grace Hopper");

  const mailsBefore = receivedMails().filter((m) => m.to.includes(signerEmail)).length;
  await visitor.getByTestId("sign-submit").press("Enter");
  const codeDialog = visitor.getByRole("dialog", { name: "Confirm with a code" });
  await expect(codeDialog).toContainText("by mail to g•••@outside.test");
  await expect(codeDialog.getByRole("button", { name: "Send me a code" })).toBeFocused();
  await visitor.keyboard.press("Enter");
  await expect(codeDialog.getByRole("status")).toHaveText(/A code was mailed to/);
  const code = await signingCodeFor(signerEmail, mailsBefore);
  // A wrong code first: said in the dialog, nothing signed.
  await codeDialog.getByLabel("6-digit code").fill(code === "000000" ? "111111" : "000000");
  await codeDialog.getByLabel("6-digit code").press("Enter");
  await expect(codeDialog.getByRole("alert")).toHaveText("This code is wrong or has expired. Ask for a new one if needed.");
  await screenshot(visitor, "sign-code");
  await codeDialog.getByLabel("6-digit code").fill(code);
  await codeDialog.getByLabel("6-digit code").press("Enter");
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Thank you, your signature is recorded");

  // The approver: no fields, Approve, and the code too.
  await visitor.goto(linkOf(approverEmail));
  await expect(visitor.getByTestId("next-field")).toHaveCount(0);
  const approverMails = receivedMails().filter((m) => m.to.includes(approverEmail)).length;
  await visitor.getByRole("button", { name: "Approve" }).click();
  const approverDialog = visitor.getByRole("dialog", { name: "Confirm with a code" });
  await approverDialog.getByRole("button", { name: "Send me a code" }).click();
  await approverDialog.getByLabel("6-digit code").fill(await signingCodeFor(approverEmail, approverMails));
  await approverDialog.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Thank you, your approval is recorded");
  await visitor.context().close();

  await expect.poll(async () => (await (await request.get(`/api/signatures/${created.id}`, { headers })).json()).status, { timeout: 90_000 }).toBe("done");
  const done = await (await request.get(`/api/signatures/${created.id}?full=1`, { headers })).json();
  const values = Object.fromEntries(done.documents[0].fields.map((f: { type: string; value: unknown }) => [f.type, f.value]));
  expect(values.text).toBe("Arlington");
  expect(String(values.checkbox)).toBe("true");
  await end();
});

test("a person with an account, found from the builder, finds the request in Received and signs it there", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const lastname = `Johnson${suffix()}`;
  const colleague = await createUser(request, { firstname: "Katherine", lastname, email: `${lastname.toLowerCase()}@coffre.test` });
  const folder = await seedFolder(request, `Memo ${suffix()}`, [{ name: "memo.pdf", mimeType: "application/pdf", buffer: pdfWithText("Internal memo") }]);
  const { headers, end } = await adminApi(request);
  const content = await (await request.get(`/api/folder/${folder.id}?depth=0`, { headers })).json();
  const name = `Memo ${suffix()}`;
  const created = await (await request.post("/api/signatures", { headers, data: { name } })).json();
  expect((await request.post(`/api/signatures/${created.id}/documents/${content.content.files[0].id}`, { headers, data: {} })).status()).toBe(201);
  await end();

  await signInAsAdmin(page);
  await page.goto(`/signatures/${created.id}/edit`);
  await page.getByLabel("Or find someone with an account here").fill(lastname);
  await page.getByRole("button", { name: `Add Katherine ${lastname} as Signer` }).click();
  await expect(page.getByTestId("builder-actor")).toContainText(`Katherine ${lastname}`);
  await page.getByRole("button", { name: "Add a Signature field" }).press("Enter");
  await expect(page.getByTestId("placed-field")).toHaveCount(1);
  await page.getByTestId("send-request").click();
  await expect(page.getByTestId("request-status")).toHaveText("In progress");

  const colleaguePage = await (await browser.newContext()).newPage();
  await signIn(colleaguePage, colleague.password, colleague.login);
  await expect(colleaguePage).toHaveURL("/");
  await colleaguePage.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Signatures" }).click();
  await colleaguePage.getByRole("button", { name: "Received" }).click();
  const received = row(colleaguePage, name);
  await expect(received.getByTestId("actor-status")).toHaveText("Invited");
  await screenshot(colleaguePage, "signatures-received");
  await received.getByRole("link", { name: `Sign “${name}”` }).click();
  await expect(colleaguePage.getByRole("heading", { level: 1 })).toHaveText(name);
  await colleaguePage.getByRole("button", { name: "Create my signature" }).click();
  const pad = colleaguePage.getByRole("dialog", { name: "Your signature" });
  await pad.getByRole("button", { name: "Type" }).click();
  await expect(pad.getByLabel("Your name as signature")).toHaveValue(`Katherine ${lastname}`);
  await pad.getByRole("button", { name: "Use this signature" }).click();
  await colleaguePage.getByTestId("sign-submit").click();
  await expect(colleaguePage.getByRole("heading", { level: 1 })).toHaveText("Thank you, your signature is recorded");
  await colleaguePage.context().close();

  await expect(page.getByTestId("request-status")).toHaveText("Signed", { timeout: 90_000 });
});
