import { ApiError } from "@/lib/api-client";
import type { Translate } from "@/lib/i18n/translate";

/** A message for a failed account call that the forms do not explain more precisely. */
export function describeError(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t("error.generic");
  if (error.status === 0) return t("error.network");
  if (error.status === 400) return t("error.invalid");
  if (error.status === 403) return t("error.forbidden");
  if (error.status === 429) return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
  return t("error.generic");
}

/** Field names a 400 invalid_request blamed. */
export const invalidFields = (error: unknown): Set<string> => new Set(error instanceof ApiError && error.status === 400 ? error.fields : []);
