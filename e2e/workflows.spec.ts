import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { pdfWithText } from "./fixtures";
import { createUser, screenshot, seedFolder, signIn, signInAsAdmin } from "./helpers";
import { receivedMails, type E2eMail } from "./mailbox";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

/** A mail's text whatever its transfer encoding (quoted-printable or base64 parts). */
function mailText(mail: E2eMail): string {
  const quoted = mail.raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const base64Parts = [...mail.raw.matchAll(/Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi)].map((m) => Buffer.from(m[1].replace(/\s/g, ""), "base64").toString("utf8"));
  return [quoted, ...base64Parts].join("\n");
}

/** The validation link mailed to `address` (BASE_URL/workflow/<token>), as a path of the e2e server. */
async function validationLinkFor(address: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        for (const mail of receivedMails().filter((m) => m.to.includes(address))) {
          const found = /https?:\/\/[^\s"'<>]+(\/workflow\/[0-9]+\.[A-Za-z0-9_-]{43})/.exec(mailText(mail));
          if (found) link = found[1];
        }
        return link;
      },
      { timeout: 30_000, message: `a validation link mailed to ${address}` },
    )
    .toBeTruthy();
  return link!;
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

test("a flux 1 validation started from the item menu: an internal validator validates in the app, an outside one through the mailed link, and the file shows it validated", async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const tag = suffix();
  const folder = await seedFolder(request, `Budget ${tag}`, [{ name: "budget.pdf", mimeType: "application/pdf", buffer: pdfWithText("Budget 2027: total 42 000 EUR") }]);
  const colleague = await createUser(request, { firstname: "Grace", lastname: `Validator${tag}`, email: `grace.${tag}@coffre.test` });
  const outsider = `auditor.${tag}@outside.test`;

  // The administrator starts a validation from the file's item menu.
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  await row(page, "budget.pdf").click({ button: "right" });
  await page.getByRole("menu").getByRole("menuitem", { name: "Start a validation" }).click();
  const dialog = page.getByRole("dialog", { name: "Validation of budget.pdf" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Find a person").fill(`Validator${tag}`);
  await dialog.getByRole("button", { name: `Add Grace Validator${tag}` }).click();
  await expect(dialog.getByText(`Grace Validator${tag} <grace.${tag}@coffre.test>`)).toBeVisible();
  await dialog.getByLabel("Email address").fill(outsider);
  await dialog.getByLabel("Email address").press("Enter");
  await expect(dialog.getByText(outsider, { exact: true })).toBeVisible();
  await dialog.getByLabel("Message to the validators (optional)").fill("Please check the totals before Friday.");
  await dialog.getByLabel("Send everyone a copy once it is complete").check();
  await screenshot(page, "workflow-start-dialog", { fullPage: true });
  expect(await seriousViolations(page), "start dialog").toEqual([]);
  await dialog.getByRole("button", { name: "Send" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Validation sent to 2 validator(s).")).toBeVisible();

  // The initiator follows it on the Validations page.
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Validations" }).click();
  await expect(page).toHaveURL("/workflows");
  const mine = page.getByTestId("workflows-mine").getByTestId("workflow-card").first();
  await expect(mine).toContainText("budget.pdf");
  await expect(mine.getByTestId("workflow-state")).toHaveText("Waiting for validation");
  await expect(mine).toContainText(outsider);

  // The internal validator signs in and validates in the app.
  const insideContext = await browser.newContext();
  const inside = await insideContext.newPage();
  await signIn(inside, colleague.password, colleague.login);
  await expect(inside).toHaveURL("/");
  await inside.goto("/workflows");
  const card = inside.getByTestId("workflows-to-validate").getByTestId("workflow-card").first();
  await expect(card).toContainText("budget.pdf");
  await expect(card).toContainText(`From ${"Administrator"}`);
  await card.getByRole("button", { name: "Review" }).click();
  await expect(card.getByTestId("workflow-message")).toHaveText("Please check the totals before Friday.");
  await card.getByRole("button", { name: "Show budget.pdf" }).click();
  const viewer = card.getByTestId("workflow-preview");
  await expect(viewer.getByTestId("pdf-page")).toHaveText("Page 1 of 1", { timeout: 30_000 });
  await expect(viewer.getByTestId("pdf-text")).toContainText("total 42 000 EUR");
  await card.getByLabel("Comment (optional)").fill("Totals checked.");
  await screenshot(inside, "workflow-internal-review", { fullPage: true });
  expect(await seriousViolations(inside), "validations page").toEqual([]);
  await card.getByRole("button", { name: "Validate" }).click();
  await expect(card.getByTestId("workflow-decision")).toHaveText("Your decision: Validated. Waiting for the other validators.");
  await insideContext.close();

  // The outside validator opens the mailed link in a fresh browser, without an account.
  const link = await validationLinkFor(outsider);
  const outsideContext = await browser.newContext();
  const outside = await outsideContext.newPage();
  await outside.goto(link);
  await expect(outside.getByRole("heading", { level: 1 })).toHaveText("Validation of a document");
  await expect(outside.getByRole("navigation", { name: "Main navigation" })).toHaveCount(0);
  await expect(outside.getByText("Administrator asks for your decision on these documents.")).toBeVisible();
  await expect(outside.getByTestId("workflow-state")).toHaveText("Waiting for validation");
  await outside.getByRole("button", { name: "Show budget.pdf" }).click();
  await expect(outside.getByTestId("workflow-preview").getByTestId("pdf-text")).toContainText("Budget 2027", { timeout: 30_000 });
  await screenshot(outside, "workflow-public-page", { fullPage: true });
  expect(await seriousViolations(outside), "public page").toEqual([]);
  // Keyboard only: the comment, then Tab to Validate and Enter.
  await outside.getByLabel("Comment (optional)").focus();
  await outside.keyboard.type("Agreed.");
  await outside.keyboard.press("Tab");
  await expect(outside.getByRole("button", { name: "Validate" })).toBeFocused();
  await outside.keyboard.press("Enter");
  await expect(outside.getByRole("main").getByRole("status")).toHaveText("Your decision was recorded; the request is now closed. Thank you.");
  await expect(outside.getByTestId("workflow-state")).toHaveText("Validated");
  await screenshot(outside, "workflow-public-validated", { fullPage: true });
  // Closed: the link is dead.
  await outside.reload();
  await expect(outside.getByRole("main").getByRole("alert")).toHaveText("This request is closed: the link no longer works.");
  await outsideContext.close();

  // Everyone gets a copy link.
  await expect.poll(() => receivedMails().some((m) => m.to.includes(outsider) && /\/s\/[\w-]+/.test(mailText(m))), { timeout: 30_000 }).toBe(true);

  // The file shows its workflow closed and validated; the Validations page too.
  await page.goto(`/files/${folder.id}`);
  await row(page, "budget.pdf").click();
  await page.getByRole("toolbar", { name: "Actions" }).getByRole("button", { name: "Details" }).click();
  const status = page.getByTestId("file-workflow");
  await expect(status).toContainText("Validation of a document:");
  await expect(status).toContainText("Validated");
  await expect(status).toContainText("closed");
  await screenshot(page, "workflow-file-validated", { fullPage: true });
  await page.goto("/workflows");
  const done = page.getByTestId("workflows-mine").getByTestId("workflow-card").first();
  await expect(done.getByTestId("workflow-state")).toHaveText("Validated");
  await expect(done).toContainText("“Agreed.”");
  await expect(done).toContainText("“Totals checked.”");
  await screenshot(page, "workflow-validations-page", { fullPage: true });
});

test("an unknown validation link says so in plain words", async ({ page }) => {
  await page.goto(`/workflow/1.${"A".repeat(43)}`);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("This link does not exist. Check that it was copied whole.");
});
