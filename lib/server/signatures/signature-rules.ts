import "server-only";
import { AppError } from "../errors";

/** api.md levels: the built-in signer offers the simple and advanced ones; a qualified signature needs a qualified trust service provider. */
export function assertLevelSupported(level: string | null | undefined): void {
  if (level === "qualified_electronic_signature") {
    throw new AppError("level_unsupported", "Qualified electronic signatures need a qualified trust service provider, which this platform is not; use electronic_signature or advanced_electronic_signature", { level });
  }
}

export function assertFutureDate(date: Date | null | undefined): void {
  if (date && date.getTime() <= Date.now()) {
    throw new AppError("invalid_request", "The expiration date must be in the future", [{ path: "expiration_date", message: "Must be in the future" }]);
  }
}

/** Default sizes of a field (PDF points): a signature stamp is 200×70 as the contract's workflow fields say. */
export function defaultFieldSize(type: string, size?: number | null): { width: number; height: number } {
  if (type === "signature") return { width: 200, height: 70 };
  if (type === "initials") return { width: 80, height: 40 };
  if (type === "radio") return { width: 150, height: 60 };
  if (type === "checkbox") return { width: size ?? 12, height: size ?? 12 };
  return { width: 150, height: 20 };
}
