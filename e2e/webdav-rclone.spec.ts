import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { createUser, screenshot, signIn } from "./helpers";

// Issue 29, "Done when": WebDAV through the real rclone with an app password, on an account with
// an authenticator app turned on in the browser; the account password alone is refused.

const run = promisify(execFile);
const totp = (secret: string) => new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();

/** rclone on an on-the-fly WebDAV remote (no config file), as the account page's command line says. */
async function rclone(address: string, login: string, password: string, args: string[]) {
  const { stdout: obscured } = await run("rclone", ["obscure", password]);
  const remote = ["--config", "/dev/null", "--webdav-url", address, "--webdav-vendor", "other", "--webdav-user", login, "--webdav-pass", obscured.trim(), "--retries", "1", "--low-level-retries", "1"];
  return run("rclone", [...args, ...remote], { timeout: 30_000 });
}

test("rclone uploads and lists through WebDAV with an app password on an account with a second factor", async ({ page, playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const user = await createUser(api);
  await api.dispose();
  await signIn(page, user.password, user.login);
  await expect(page).toHaveURL("/");

  // The authenticator app, turned on in the account page.
  await page.goto("/account");
  const mfa = page.getByRole("region", { name: "Two-step verification" });
  await mfa.getByRole("button", { name: "Set up an app" }).click();
  const confirm = page.getByRole("dialog", { name: "Set up an authenticator app" });
  await confirm.getByLabel("Password", { exact: true }).fill(user.password);
  await confirm.getByRole("button", { name: "Continue" }).click();
  const secret = (await mfa.getByTestId("otp-secret").textContent())!.trim();
  await mfa.getByLabel("Code from your authenticator app").fill(totp(secret));
  await mfa.getByRole("button", { name: "Turn on" }).click();
  await expect(mfa.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await mfa.getByRole("button", { name: "I have saved them" }).click();

  // The WebDAV address as the page shows it, and an app password made there.
  const address = await page.getByRole("region", { name: "WebDAV" }).getByRole("textbox", { name: "WebDAV address" }).inputValue();
  expect(address).toBe(`${baseURL}/dav/`);
  const apps = page.getByRole("region", { name: "App passwords" });
  await apps.getByLabel("Name (the device or program)").fill("rclone on the laptop");
  await apps.getByRole("button", { name: "Create an app password", exact: true }).click();
  const create = page.getByRole("dialog", { name: "Create an app password" });
  await create.getByLabel("Password", { exact: true }).fill(user.password);
  await page.keyboard.press("Enter");
  const appPassword = await apps.getByTestId("app-password-created").getByRole("textbox", { name: "App password" }).inputValue();
  await apps.getByTestId("app-password-created").getByRole("button", { name: "Done" }).click();

  // The account password alone: rclone fails.
  await expect(rclone(address, user.login, user.password, ["lsf", ":webdav:"])).rejects.toThrow();

  // With the app password: a file up, then listed.
  const dir = mkdtempSync(path.join(tmpdir(), "coffre-rclone-"));
  const local = path.join(dir, "from-rclone.txt");
  writeFileSync(local, "sent by rclone through WebDAV\n");
  await rclone(address, user.login, appPassword, ["copyto", local, ":webdav:Private/from-rclone.txt"]);
  const { stdout } = await rclone(address, user.login, appPassword, ["lsf", ":webdav:Private/"]);
  expect(stdout.split("\n")).toContain("from-rclone.txt");
  rmSync(dir, { recursive: true, force: true });

  // And in the browser, in My files.
  await page.goto("/files");
  await expect(page.getByRole("row").filter({ has: page.getByText("from-rclone.txt", { exact: true }) })).toBeVisible();
  await screenshot(page, "webdav-rclone-file");
});
