import { expect, test, type Page } from "@playwright/test";
import { createUser, newestFirst, screenshot, seedFolder, signIn, signInAsAdmin } from "./helpers";
import { mailText, receivedMails } from "./mailbox";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });
const WIDTHS = [1280, 390] as const;

/** The share dialog of one file of the folder, from the folder's file list. */
async function openShareDialog(page: Page, folderId: number, name: string) {
  await page.goto(`/files/${folderId}`);
  await row(page, name).getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Share by link" }).click();
  const dialog = page.getByRole("dialog", { name: `Share “${name}”` });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function mailTo(address: string) {
  await expect.poll(() => receivedMails().filter((m) => m.to.includes(address)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  return receivedMails().find((m) => m.to.includes(address))!;
}

for (const width of WIDTHS) {
  test(`a file is shared with an outside address from the file list; the mail with its link arrives (${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    const folder = await seedFolder(request, `Outside ${suffix()}`, ["contract.txt"]);
    const outsider = `partner-${suffix()}@outside.example`;
    await signInAsAdmin(page);
    const dialog = await openShareDialog(page, folder.id, "contract.txt");
    const people = dialog.getByLabel("Send the link to an email address");
    await people.fill("partner");
    await expect(dialog.getByText("Type a full email address.")).toBeVisible();
    await people.fill(outsider);
    await dialog.getByRole("button", { name: `Send the link to ${outsider}` }).click();
    await expect(page.getByText(`The link was sent to ${outsider}.`)).toBeVisible();
    // The email share went out on a new link, now listed with its address.
    await expect(dialog.getByTestId("share-row")).toHaveCount(1);
    const url = await dialog.getByTestId("link-url").first().inputValue();
    const mail = await mailTo(outsider);
    expect(mailText(mail)).toContain(new URL(url).pathname);
    await screenshot(page, `share-dialog-outside-email-${width}`);
  });
}

test("a folder invites an outside address from its share dialog: the invitation mail arrives", async ({ page, request }) => {
  const name = `Invite ${suffix()}`;
  await seedFolder(request, name, ["brief.txt"]);
  const outsider = `guest-${suffix()}@outside.example`;
  await signInAsAdmin(page);
  await page.goto("/files");
  await newestFirst(page);
  await row(page, name).getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Share by link" }).click();
  const dialog = page.getByRole("dialog", { name: `Share “${name}”` });
  const people = dialog.getByLabel(/Add a person or a group/);
  await people.fill(outsider);
  await dialog.getByRole("button", { name: `Invite ${outsider} to this folder` }).click();
  await expect(page.getByText(`${outsider} was invited by mail.`)).toBeVisible();
  await expect(dialog.getByTestId("pending-invitations")).toContainText(outsider);
  const mail = await mailTo(outsider);
  expect(mailText(mail)).toMatch(/\/invite\//);
  await screenshot(page, "share-dialog-folder-invite");
});

test("a link's options are edited after creation: a password and an expiry; the public page then asks the password", async ({ page, browser, request }) => {
  const folder = await seedFolder(request, `Edit link ${suffix()}`, ["plan.txt"]);
  await signInAsAdmin(page);
  const dialog = await openShareDialog(page, folder.id, "plan.txt");
  await dialog.getByRole("button", { name: "Create the link" }).click();
  const link = dialog.getByTestId("share-row");
  await expect(link).toHaveCount(1);
  const url = await link.getByTestId("link-url").inputValue();

  await link.getByRole("button", { name: "Edit", exact: true }).click();
  const editor = link.getByTestId("link-editor");
  await editor.getByLabel("Name of the link (optional)").fill("Plan for the partners");
  await editor.getByLabel("Protect with a password").check();
  await editor.getByLabel("Password of the link").fill("short");
  await dialog.getByRole("button", { name: "Save the link" }).click();
  await expect(editor.getByText("The password needs 8 characters or more.")).toBeVisible();
  await editor.getByLabel("Password of the link").fill("partners-2026");
  const inAWeek = new Date(Date.now() + 7 * 86_400_000);
  const day = `${inAWeek.getFullYear()}-${String(inAWeek.getMonth() + 1).padStart(2, "0")}-${String(inAWeek.getDate()).padStart(2, "0")}`;
  await editor.getByLabel("Expires after").fill(day);
  await editor.getByLabel("Mail me at each new visitor").check();
  // While a link is edited, the footer saves it: no second row of buttons, no new-link form.
  await expect(dialog.getByRole("button", { name: "Create the link" })).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Save the link" })).toHaveCount(1);
  await screenshot(page, "share-dialog-edit-link", { show: editor });
  await dialog.getByRole("button", { name: "Save the link" }).click();
  await expect(editor).toHaveCount(0);
  await expect(link).toContainText("Plan for the partners");
  await expect(link).toContainText("password");
  await expect(link).toContainText(`until ${inAWeek.toLocaleDateString("en-US")}`);

  const visitor = await browser.newPage();
  await visitor.goto(url);
  await expect(visitor.getByText("This link is protected.")).toBeVisible();
  await visitor.getByLabel("Password").fill("partners-2026");
  await visitor.getByRole("button", { name: "Open" }).click();
  await expect(visitor.getByText("plan.txt").first()).toBeVisible();
  await screenshot(visitor, "share-dialog-edited-link-public");

  // The editor reopens with what was saved; removing the password opens the link again.
  await link.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(editor.getByLabel("Name of the link (optional)")).toHaveValue("Plan for the partners");
  await expect(editor.getByLabel("Expires after")).toHaveValue(day);
  await expect(editor.getByLabel("Mail me at each new visitor")).toBeChecked();
  await editor.getByLabel("Protect with a password").uncheck();
  await dialog.getByRole("button", { name: "Save the link" }).click();
  await expect(link).not.toContainText("password");
  const fresh = await browser.newPage();
  await fresh.goto(url);
  await expect(fresh.getByText("plan.txt").first()).toBeVisible();
  await expect(fresh.getByText("This link is protected.")).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await link.getByRole("button", { name: "Edit", exact: true }).click();
  await screenshot(page, "share-dialog-edit-link-390", { show: editor });
  await visitor.close();
  await fresh.close();
});

for (const width of WIDTHS) {
  test(`the usage bar shows bytes against the quota in the sidebar and on the account page with the largest folders (${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    const user = await createUser(request, { quota: 10 * 1024 * 1024 });
    const auth = await (await request.post("/api/auth", { data: { user: user.login, password: user.password } })).json();
    const headers = { Authorization: `Bearer ${auth.token}` };
    const roots = await (await request.get("/api/roots", { headers })).json();
    const privateRoot = roots.find((r: { type: string }) => r.type === "private");
    const big = await (await request.post("/api/folder", { headers, data: { name: "Big reports", parent_id: privateRoot.id } })).json();
    const small = await (await request.post("/api/folder", { headers, data: { name: "Small notes", parent_id: privateRoot.id } })).json();
    const upload = (folderId: number, name: string, size: number) =>
      request.post("/api/file/upload", { headers, multipart: { folderId: String(folderId), targetFile: { name, mimeType: "application/octet-stream", buffer: Buffer.alloc(size, 7) } } });
    expect((await upload(big.id, "archive.bin", 3 * 1024 * 1024)).status()).toBe(201);
    expect((await upload(small.id, "note.bin", 100 * 1024)).status()).toBe(201);

    await signIn(page, user.password, user.login);
    await expect(page).toHaveURL("/");
    const bar = page.getByRole("navigation", { name: "Main navigation" }).getByTestId("storage-usage");
    await expect(bar).toContainText(/3\.1 MB of 10 MB used/);
    await expect(bar.getByRole("meter")).toHaveAttribute("aria-valuenow", "31");
    await screenshot(page, `storage-sidebar-${width}`);

    await page.goto("/account");
    const card = page.getByRole("region", { name: "Storage" });
    await expect(card.getByRole("meter")).toHaveAttribute("aria-valuenow", "31");
    await expect(card.getByRole("listitem")).toHaveText([/Big reports\s*3 MB/, /Small notes\s*100 KB/]);
    await screenshot(page, `storage-account-${width}`, { show: card });
  });
}
