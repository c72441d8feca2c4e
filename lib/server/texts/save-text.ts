import "server-only";
import { and, eq, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { versionTexts, type TextLanguage } from "@/db/schema";
import type { ToolName } from "../previews/converter";

/**
 * The search index (version_texts.tsv) reads the first million characters of a text, so more is
 * never kept.
 */
export const MAX_TEXT_CHARS = 1_000_000;

export type TextState = "preparing" | "available" | "failed" | "none" | "unavailable";

export type TextUpdate = {
  state: TextState;
  content: string;
  language?: TextLanguage;
  toolMissing?: string | null;
  pagesDone?: number;
  searchable?: { blobId: string; size: number } | null;
  /** Left unchanged while OCR goes on: the time the row was queued at guards every step. */
  keepTime?: boolean;
};

/** The name version_texts.tool_missing gives a tool (api.md: 'tesseract', 'libreoffice', ...). */
export const toolMissingName = (tool: ToolName): string => (tool === "LibreOffice" ? "libreoffice" : tool);

/**
 * Writes a text if the row is still the one read (`guard`: its queued time, and for OCR its
 * progress); false when content replaced meanwhile queued it again (this older text is dropped).
 * A to_tsvector too large for PostgreSQL (1 MB of lexemes and positions) is halved until it fits.
 */
export async function saveText(db: DbOrTx, versionId: number, guard: SQL, update: TextUpdate): Promise<boolean> {
  let content = cleanText(update.content);
  for (;;) {
    try {
      const saved = await db
        .update(versionTexts)
        .set({
          state: update.state,
          content,
          ...(update.language ? { language: update.language } : {}),
          ...(update.toolMissing !== undefined ? { toolMissing: update.toolMissing } : {}),
          ...(update.pagesDone !== undefined ? { pagesDone: update.pagesDone } : {}),
          ...(update.searchable !== undefined ? { searchableBlobId: update.searchable?.blobId ?? null, searchableSize: update.searchable?.size ?? null } : {}),
          ...(update.keepTime ? {} : { updatedAt: new Date() }),
        })
        .where(and(eq(versionTexts.versionId, versionId), guard))
        .returning({ versionId: versionTexts.versionId });
      return saved.length > 0;
    } catch (error) {
      if (content.length < 1000 || !/too long for tsvector/i.test(String((error as { cause?: unknown }).cause ?? error))) throw error;
      content = content.slice(0, Math.floor(content.length / 2));
    }
  }
}

/** PostgreSQL text cannot hold NUL; a cut may leave half a surrogate pair. */
export function cleanText(text: string): string {
  return text.slice(0, MAX_TEXT_CHARS).replace(/\u0000/g, " ").replace(/[\ud800-\udbff]$/, "");
}
