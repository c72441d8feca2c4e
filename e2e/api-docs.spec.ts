import { expect, test } from "@playwright/test";
import { ADMIN } from "./env";
import { screenshot } from "./helpers";

// Issue 16, part 4: /docs/api renders GET /api/openapi.json and calls the API with a token.

test("the API docs page lists the operations and calls one with a bearer token", async ({ page, request }) => {
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  const auth = await request.post("/api/auth", { data: { user: ADMIN.login, password: ADMIN.password } });
  const { token } = await auth.json();

  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1, name: "Coffre API" })).toBeVisible();
  await expect(page.locator(".opblock-tag", { hasText: "account" })).toBeVisible({ timeout: 30_000 });

  await page.getByRole("button", { name: "Authorize" }).first().click();
  const bearer = page.locator(".auth-container").filter({ hasText: "bearer" });
  await bearer.locator("input").fill(token);
  await bearer.getByRole("button", { name: "Apply credentials" }).click();
  await bearer.getByRole("button", { name: "Close" }).click();

  await page.locator(".opblock-tag", { hasText: "account" }).first().click();
  const account = page.locator(".opblock-get").filter({ has: page.locator('[data-path="/api/account"]') }).first();
  await account.locator(".opblock-summary").click();
  await account.getByRole("button", { name: "Execute" }).click();
  const response = account.locator(".live-responses-table .response").first();
  await expect(response.locator(".response-col_status")).toHaveText("200");
  await expect(response.locator(".response-col_description")).toContainText(`"login": "${ADMIN.login}"`);
  await screenshot(page, "api-docs", { show: account });
  expect(refused).toEqual([]);
  await request.delete("/api/auth", { headers: { Authorization: `Bearer ${token}` } });
});
