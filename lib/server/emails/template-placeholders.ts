import "server-only";
import { ALERT_PLACEHOLDERS, unknownPlaceholders } from "@/lib/contracts/emails";
import { AppError } from "../errors";

const braces = (names: readonly string[]) => names.map((n) => `{{${n}}}`).join(", ");

/**
 * An alert template may only name the placeholders its mail fills. A 400 names each unknown one
 * and where it is, and lists the allowed ones: in `error` for people, and in `details` (the
 * validation shape [{path, message}], plus `code`, `placeholders` and `allowed`) for clients.
 */
export function assertKnownPlaceholders(fields: { object?: string; content?: string }): void {
  const found = (["object", "content"] as const).flatMap((path) => {
    const names = unknownPlaceholders(fields[path] ?? "");
    return names.length > 0 ? [{ path, names }] : [];
  });
  if (found.length === 0) return;
  const allowed = braces(ALERT_PLACEHOLDERS);
  const where = found.map((f) => `${braces(f.names)} in ${f.path}`).join(", ");
  const count = found.reduce((n, f) => n + f.names.length, 0);
  throw new AppError(
    "invalid_request",
    `Unknown placeholder${count > 1 ? "s" : ""} ${where}; allowed: ${allowed}`,
    found.map((f) => ({
      path: f.path,
      message: `Unknown placeholder${f.names.length > 1 ? "s" : ""} ${braces(f.names)}; allowed: ${allowed}`,
      code: "unknown_placeholder",
      placeholders: f.names,
      allowed: [...ALERT_PLACEHOLDERS],
    })),
  );
}
