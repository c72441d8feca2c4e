import { expect, test } from "@playwright/test";
import { ADMIN } from "./env";
import { createUser, screenshot, signIn, signInAsAdmin } from "./helpers";

// Issue 16, part 4: /docs/api renders GET /api/openapi.json and calls the API with a token.
// Issue 27, item 6: a guide at the top, resources in the contract's order, linked from the account page and the console.

test("the API docs page lists the operations and calls one with a bearer token", async ({ page, request }) => {
  // The first request builds the document (every route module loads); Swagger UI then lays out some 340 operations.
  test.setTimeout(180_000);
  expect((await request.get("/api/openapi.json", { timeout: 90_000 })).status()).toBe(200);
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  const auth = await request.post("/api/auth", { data: { user: ADMIN.login, password: ADMIN.password } });
  const { token } = await auth.json();

  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1, name: "Coffre API" })).toBeVisible();
  const guide = page.getByRole("region", { name: "Before you start", exact: true });
  for (const topic of ["Authentication", "Acting as another user", "Lists and paging", "Errors", "Uploads"]) {
    await expect(guide.getByRole("heading", { level: 3, name: topic, exact: true })).toBeVisible();
  }
  await expect(guide).toContainText("nb_total_objects");
  await expect(guide).toContainText("application/octet-stream");
  await screenshot(page, "api-docs-guide");

  // Resources, in the contract's order (tags.ts), each described.
  await expect(page.locator(".opblock-tag").first()).toBeVisible({ timeout: 60_000 });
  const names = await page.locator(".opblock-tag").evaluateAll((els) => els.map((el) => el.getAttribute("data-tag") ?? ""));
  expect(names.slice(0, 4)).toEqual(["Account", "Account security", "Folders", "Files"]);
  await expect(page.locator(".opblock-tag[data-tag='Files']")).toContainText("uploads");

  await page.getByRole("button", { name: "Authorize" }).first().click();
  const bearer = page.locator(".auth-container").filter({ hasText: "bearer" });
  await bearer.locator("input").fill(token);
  await bearer.getByRole("button", { name: "Apply credentials" }).click();
  await bearer.getByRole("button", { name: "Close" }).click();

  await page.locator(".opblock-tag[data-tag='Account']").click();
  const account = page.locator(".opblock-get").filter({ has: page.locator('[data-path="/api/account"]') }).first();
  await account.locator(".opblock-summary").click();
  // The typed answer and the header every authenticated operation takes.
  await expect(account.locator('tr[data-param-name="AsId"][data-param-in="header"]')).toBeVisible();
  await account.getByRole("button", { name: "Execute" }).click();
  const response = account.locator(".live-responses-table .response").first();
  await expect(response.locator(".response-col_status")).toHaveText("200");
  await expect(response.locator(".response-col_description")).toContainText(`"login": "${ADMIN.login}"`);
  await screenshot(page, "api-docs", { show: account });
  expect(refused).toEqual([]);
  await request.delete("/api/auth", { headers: { Authorization: `Bearer ${token}` } });
});

test("the account page and the console link to the API documentation", async ({ page, request }) => {
  const user = await createUser(request);
  await signIn(page, user.password, user.login);
  await expect(page).toHaveURL("/");
  await page.goto("/account");
  const api = page.getByRole("region", { name: "REST API", exact: true });
  await expect(api).toBeVisible();
  await screenshot(page, "api-docs-account", { show: api });
  await api.getByRole("link", { name: "API documentation", exact: true }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole("heading", { level: 1, name: "Coffre API" })).toBeVisible();

  await page.context().clearCookies();
  await signInAsAdmin(page);
  await page.goto("/admin");
  await page.getByRole("navigation").getByRole("link", { name: "API documentation", exact: true }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
});
