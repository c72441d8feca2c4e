"use client";

import { useQuery } from "@tanstack/react-query";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { htmlLang } from "@/lib/i18n/languages";
import { fileTextQuery } from "@/lib/queries/details";
import type { FileResponse } from "@/lib/queries/files";
import styles from "./details.module.css";

/** The text search configurations' languages, as language tags for Intl.DisplayNames. */
const LANGUAGE_TAGS: Record<string, string> = { english: "en", french: "fr", german: "de", spanish: "es", italian: "it", portuguese: "pt" };
/** Names of the tools the server may lack, as people know them. */
const TOOL_NAMES: Record<string, string> = { tesseract: "Tesseract", libreoffice: "LibreOffice", bubblewrap: "bubblewrap" };

/**
 * In a file's details: whether its content can be searched (and in which language), the OCR of a
 * scan page by page while it runs, the tool the server lacks when it cannot read the file, and
 * the searchable PDF of a scan when there is one.
 */
export function FileTextStatus({ file }: { file: Pick<FileResponse, "id" | "can_download"> }) {
  const t = useT();
  const language = useLanguage();
  const text = useQuery(fileTextQuery(file.id));
  if (!text.data || text.data.state === "none") return null;
  const { state, tool_missing: tool, pages, pages_done: done, searchable_pdf: searchable } = text.data;
  const toolName = tool ? (TOOL_NAMES[tool] ?? tool) : "";
  const tag = LANGUAGE_TAGS[text.data.language];
  const languageName = tag ? new Intl.DisplayNames([htmlLang(language)], { type: "language" }).of(tag) : null;
  let status: string;
  if (state === "available") status = [t("text.available"), languageName, pages > 1 ? t("text.pages", { count: pages }) : null].filter(Boolean).join(" · ");
  else if (state === "preparing" && pages > 0) status = t("text.reading", { done, total: pages });
  else if (state === "pending" || state === "preparing") status = t("text.pending");
  else if (state === "unavailable") status = t("text.unavailable", { tool: toolName });
  else status = t("text.failed");
  return (
    <p className={styles.textStatus} data-testid="file-text">
      <span>{status}</span>
      {state === "available" && tool && <span className={styles.muted}>{t("text.partial", { tool: toolName })}</span>}
      {searchable && file.can_download && (
        <a href={`/api/file/${file.id}/download?searchable=1`} download>
          {t("text.searchablePdf")}
        </a>
      )}
    </p>
  );
}
