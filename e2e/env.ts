/** The first administrator the e2e server is started with (playwright.config.ts). */
export const ADMIN = { login: "admin", password: "E2e-Admin-pass-42", name: "Administrator" };

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
