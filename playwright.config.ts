import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { ADMIN, E2E_PORT } from "./e2e/env";
import { E2E_SMTP_PORT } from "./e2e/mailbox";

// One data folder per port, emptied by the server command: every run starts on a fresh database and only the last one stays.
const dataDir = path.join(tmpdir(), `coffre-e2e-${E2E_PORT}`);
const baseURL = `http://127.0.0.1:${E2E_PORT}`;

/**
 * Journeys against the built app (`npm run build` first), on embedded PGlite unless
 * E2E_DATABASE_URL names a PostgreSQL database. Debian's Chromium: Playwright's own
 * browsers cannot be downloaded here (environment.md, trap 1).
 */
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  // The journeys share the one administrator account; running them in turn keeps them independent.
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    locale: "en-US",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  webServer: {
    command: `rm -rf '${dataDir}' && npm start`,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: dataDir,
      ADMIN_LOGIN: ADMIN.login,
      ADMIN_PASSWORD: ADMIN.password,
      NEXT_TELEMETRY_DISABLED: "1",
      // Empty values override the caller's environment: PGlite unless asked, and no BASE_URL, so the
      // sign-in is tested as a first start would run it (next-auth deriving its address from the request).
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
      BASE_URL: "",
      // Mails go to the journeys' own SMTP server (e2e/mailbox.ts), so receipts can be read.
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
    },
  },
});
