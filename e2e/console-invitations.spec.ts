import { expect, test, type Page } from "@playwright/test";
import { ADMIN } from "./env";
import { adminApi, screenshot, seedFolder, signIn, signInAsAdmin } from "./helpers";
import { mailText, receivedMails } from "./mailbox";

const suffix = () => Math.random().toString(36).slice(2, 7);

/** The invitation link mailed to `address`, as a path of the e2e server. */
async function invitationLinkFor(address: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        for (const mail of receivedMails().filter((m) => m.to.includes(address))) {
          const found = /https?:\/\/[^\s"'<>]+(\/invite\/[A-Za-z0-9_-]+)/.exec(mailText(mail));
          if (found) link = found[1];
        }
        return link;
      },
      { timeout: 30_000, message: `an invitation mailed to ${address}` },
    )
    .toBeTruthy();
  return link!;
}

async function atWidth(page: Page, width: number, name: string) {
  await page.setViewportSize({ width, height: 844 });
  await screenshot(page, name);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("an administrator invites someone from the console; the mail arrives and the invited person creates the account", async ({ page, request }) => {
  const folder = await seedFolder(request, `Console invite ${suffix()}`, ["plan.txt"]);
  const email = `invitee_${suffix()}@example.test`;

  await signInAsAdmin(page);
  await page.goto("/admin/invitations");
  await page.getByRole("button", { name: "New invitation" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite someone to a folder" });
  await expect(dialog).toBeVisible();

  // Sending without an address or a folder is caught in the dialog.
  await dialog.getByRole("button", { name: "Send the invitation" }).click();
  await expect(dialog.getByText("Enter an email address.")).toBeVisible();

  await dialog.getByLabel("Invited address", { exact: true }).fill(email);
  await dialog.getByRole("button", { name: folder.name }).click();
  await expect(dialog.getByText(`Destination: ${folder.name}`)).toBeVisible();
  await dialog.getByRole("checkbox", { name: "Write" }).check();
  const inTenDays = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  await dialog.getByLabel("Expires on").fill(inTenDays);
  await screenshot(page, "console-invitation-create");
  await atWidth(page, 390, "console-invitation-create-390");
  await dialog.getByRole("button", { name: "Send the invitation" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();

  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("Waiting");
  await expect(row).toContainText("Read, Download, Write");
  await screenshot(page, "console-invitations");

  // The mail went through the queue to the SMTP server; its link opens the invitation page.
  const link = await invitationLinkFor(email);
  await page.context().clearCookies();
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your account");
  await expect(page.getByText(`${ADMIN.name} invites you to the folder “${folder.name}”.`)).toBeVisible();
  await expect(page.getByLabel("Email address")).toHaveValue(email);
  const login = `invitee_${suffix()}`;
  await page.getByLabel("Login").fill(login);
  await page.getByLabel("Password", { exact: true }).fill("Invited-pass-42");
  await page.getByLabel("Confirm the password").fill("Invited-pass-42");
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page).toHaveURL("/login?invited=1");
  await signIn(page, "Invited-pass-42", login);
  await expect(page).toHaveURL("/");
  await page.goto("/files/shared");
  await expect(page.getByRole("link", { name: folder.name, exact: true })).toBeVisible();

  // The console shows the invitation used.
  await page.context().clearCookies();
  await signInAsAdmin(page);
  await page.goto("/admin/invitations");
  await expect(page.getByRole("row").filter({ hasText: email })).toContainText("Accepted");
});

test("an administrator selects two users, deactivates them together and reads the summary; usage and sorting by usage", async ({ page, request }) => {
  const id = suffix();
  const { headers, end } = await adminApi(request);
  const make = async (first: string, quota: number | null) => {
    const res = await request.post("/api/user", { headers, data: { login: `${first.toLowerCase()}_${id}`, password: "Bulk-pass-42", firstname: first, lastname: `Bulk ${id}`, role: 2, quota } });
    expect(res.status()).toBe(201);
    return res.json();
  };
  await make("Ann", 5 * 1024 ** 3);
  const bob = await make("Bob", null);
  await make("Cid", 1024 ** 3);
  // Bob stores a file: his usage shows, and sorting by usage puts him first.
  const asBob = { ...headers, AsId: bob.id };
  const upload = await request.post("/api/file/upload", {
    headers: asBob,
    multipart: { folderId: String(bob.roots[0]), targetFile: { name: "big.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(300 * 1024, 7) } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  await end();

  await signInAsAdmin(page);
  await page.goto("/admin/users");
  await page.getByRole("searchbox", { name: "Search" }).fill(`Bulk ${id}`);
  const rows = page.getByTestId("users-table").locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: `ann_${id}` })).toContainText("0 B of 5 GB");
  await expect(rows.filter({ hasText: `bob_${id}` })).toContainText("300 KB");
  await expect(rows.filter({ hasText: `bob_${id}` })).toContainText("No limit");

  await page.getByRole("button", { name: /^Usage/ }).click();
  await page.getByRole("button", { name: /^Usage/ }).click();
  await expect(page.getByRole("columnheader", { name: /Usage/ })).toHaveAttribute("aria-sort", "descending");
  await expect(rows.first()).toContainText(`bob_${id}`);

  // Keyboard: Space ticks a row's box.
  await page.getByRole("checkbox", { name: `Select Ann Bulk ${id}` }).focus();
  await page.keyboard.press("Space");
  await page.getByRole("checkbox", { name: `Select Bob Bulk ${id}` }).check();
  const bar = page.getByRole("region", { name: "Actions on the selected users" });
  await expect(bar).toContainText("Selected: 2");
  // Two of the page's three: the page's box is mixed.
  const pageBox = page.getByRole("checkbox", { name: "Select every user on this page" });
  await expect.poll(() => pageBox.evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(true);
  await screenshot(page, "console-users-bulk");
  await atWidth(page, 390, "console-users-bulk-390");

  await bar.getByRole("button", { name: "Deactivate" }).click();
  const dialog = page.getByRole("dialog", { name: "Deactivate the selected users (2)?" });
  await expect(dialog).toContainText(`Ann Bulk ${id}`);
  await dialog.getByRole("button", { name: "Deactivate (2)" }).click();
  await expect(dialog.getByTestId("bulk-summary")).toContainText("Done for 2 of 2.");
  await screenshot(page, "console-users-bulk-summary");
  await dialog.getByRole("button", { name: "Close" }).last().click();
  await expect(dialog).toBeHidden();
  await expect(bar).toContainText("Tick users to act on several at once.");
  await expect(rows.filter({ hasText: `ann_${id}` })).toContainText("Deactivated");
  await expect(rows.filter({ hasText: `bob_${id}` })).toContainText("Deactivated");
  await expect(rows.filter({ hasText: `cid_${id}` })).not.toContainText("Deactivated");

  // Select all on the page, then set one quota for all three.
  await pageBox.check();
  await expect(bar).toContainText("Selected: 3");
  await bar.getByRole("button", { name: "Set the quota" }).click();
  const quota = page.getByRole("dialog", { name: "Set the quota of the selected users (3)" });
  await quota.getByLabel("Quota (GB)").fill("2");
  await quota.getByRole("button", { name: "Set (3)" }).click();
  await expect(quota.getByTestId("bulk-summary")).toContainText("Done for 3 of 3.");
  await quota.getByRole("button", { name: "Close" }).last().click();
  await expect(rows.filter({ hasText: `bob_${id}` })).toContainText("300 KB of 2 GB");
  await screenshot(page, "console-users-usage");
});
