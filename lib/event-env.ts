/** The browser and system of an event's `env`, which the contract types `unknown` (its fields depend on the event). */
export function eventEnv(env: unknown): { browser?: string; os?: string } {
  if (!env || typeof env !== "object") return {};
  const { browser, os } = env as Record<string, unknown>;
  return { browser: typeof browser === "string" ? browser : undefined, os: typeof os === "string" ? os : undefined };
}
