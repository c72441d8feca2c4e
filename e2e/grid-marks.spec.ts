import { expect, test } from "@playwright/test";
import { adminApi, screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);

// Issue 29: at 390 px the view toggle stays on screen, and grid tiles show their tags and their lock.
test("the grid shows tags and locks, and the view toggle fits a phone's width", async ({ page, request }) => {
  const name = `Tiles ${suffix()}`;
  const folder = await seedFolder(request, name, ["contract.txt", "notes.txt"]);
  const { headers, end } = await adminApi(request);
  const listing = await (await request.get(`/api/folder/${folder.id}?depth=0`, { headers })).json();
  const fileId = (n: string) => listing.content.files.find((f: { name: string }) => f.name === n).id;
  const tag = await (await request.post("/api/tag", { headers, data: { name: `Urgent ${suffix()}` } })).json();
  expect((await request.post(`/api/tag/${tag.id}/${fileId("contract.txt")}/file`, { headers })).status()).toBeLessThan(300);
  expect((await request.put(`/api/lock/${fileId("notes.txt")}`, { headers, data: {} })).status()).toBeLessThan(300);
  await end();

  await signInAsAdmin(page);
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`/files/${folder.id}`);
    const toggle = page.getByRole("group", { name: "View", exact: true });
    const grid = toggle.getByRole("button", { name: "Grid", exact: true });
    await expect(grid).toBeInViewport({ ratio: 1 });
    await grid.click();
    const tiles = page.getByTestId("file-grid");
    const contract = tiles.getByRole("row").filter({ hasText: "contract.txt" });
    await expect(contract.getByTestId("tag-chip")).toHaveText(tag.name);
    const notes = tiles.getByRole("row").filter({ hasText: "notes.txt" });
    await expect(notes.getByRole("img", { name: "Locked by Administrator", exact: true })).toHaveAttribute("title", "Locked by Administrator");
    await expect(toggle.getByRole("button", { name: "List", exact: true })).toBeInViewport({ ratio: 1 });
    await screenshot(page, `grid-marks-${width}`);
    // With a tile selected the toolbar holds the selection's actions too: the toggle stays whole.
    await contract.getByTestId("tag-chip").click();
    await expect(page.getByTestId("selection-bar")).toBeVisible();
    await expect(toggle.getByRole("button", { name: "List", exact: true })).toBeInViewport({ ratio: 1 });
    await screenshot(page, `grid-marks-${width}-selected`);
    await toggle.getByRole("button", { name: "List", exact: true }).click();
    await expect(page.getByTestId("file-grid")).toHaveCount(0);
  }
});
