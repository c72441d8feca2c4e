import { ApiError } from "@/lib/api-client";
import type { Translate } from "@/lib/i18n/translate";

/** A failed console action in words: the server's own message says what was refused and why. */
export function describeAdminError(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t("error.generic");
  if (error.status === 0) return t("error.network");
  if (error.status === 403) return t("error.forbidden");
  return error.message || t("error.generic");
}
