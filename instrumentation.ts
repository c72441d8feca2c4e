// Compiled for the edge too: keep Node-only code behind a dynamic import (environment.md, trap 10).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { bootOnce } = await import("./lib/server/boot/start");
  await bootOnce();
}
