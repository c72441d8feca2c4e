import { ApiError } from "@/lib/api-client";
import type { Translate } from "@/lib/i18n/translate";

/**
 * A failed signature call in words. The codes the signature API gives (api.md, "Signature
 * requests") have their own sentences; anything else keeps the server's message, which names
 * what was refused (a field outside the page, an activation without a signer...).
 */
export function describeSignatureError(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t("error.generic");
  if (error.status === 0) return t("error.network");
  if (error.status === 429) return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
  if (error.status === 415) return t("signatures.error.notPdf");
  if (error.status === 413) return t("signatures.error.tooLarge");
  if (error.code === "pdf_encrypted") return t("signatures.error.encrypted");
  if (error.code === "pdf_damaged") return t("signatures.error.damaged");
  if (error.code === "pdf_active_content") return t("signatures.error.activeContent");
  if (error.code === "level_unsupported") return t("signatures.error.level");
  if (error.status === 403) return t("error.forbidden");
  if (error.status === 404) return t("signatures.error.notFound");
  return error.message || t("error.generic");
}

/** Why a signing link cannot be used, by the server's code (410s of api.md). */
export function closedSigningMessage(error: unknown): "sign.closed.done" | "sign.closed.expired" | "sign.closed.cancelled" | "sign.closed.refused" | "sign.closed.notFound" | "sign.closed.unavailable" {
  if (!(error instanceof ApiError)) return "sign.closed.unavailable";
  if (error.code === "signing_done") return "sign.closed.done";
  if (error.code === "signing_expired") return "sign.closed.expired";
  if (error.code === "signing_cancelled") return "sign.closed.cancelled";
  if (error.code === "signing_refused") return "sign.closed.refused";
  if (error.status === 404 || error.status === 400) return "sign.closed.notFound";
  return "sign.closed.unavailable";
}
