import { expect, test } from "@playwright/test";
import { screenshot, signInAsAdmin } from "./helpers";

test("the console's configuration says which certificate seals signed PDFs and how to bring one readers trust", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/config");
  const card = page.getByRole("region", { name: "Signature seal" });
  await expect(card).toBeVisible();
  // Without SIGNING_P12 nor SIGNING_TSA_URL: the platform's own CA, PAdES B-B, the server's clock.
  await expect(card.getByText("The platform's own certificate authority", { exact: true })).toBeVisible();
  await expect(card.getByText("PAdES B-B", { exact: true })).toBeVisible();
  await expect(card.getByText(/^None: the signing time is the server's clock/)).toBeVisible();
  await expect(card.getByText(/SIGNING_P12=\/path\/to\/seal\.p12/)).toBeVisible();
  // Its certificate authority downloads as PEM.
  const download = page.waitForEvent("download");
  await card.getByRole("link", { name: "Download the certificate authority (PEM)" }).click();
  expect((await download).suggestedFilename()).toBe("coffre-signing-ca.pem");
  await card.scrollIntoViewIfNeeded();
  await screenshot(page, "console-seal");
});
