import "server-only";
import { eq, sql } from "drizzle-orm";
import { versionTexts } from "@/db/schema";
import type { TextStateResponse } from "@/lib/contracts/texts";
import type { AuthedCtx } from "../context";
import { getFileOrThrow } from "../files/get-file";

/**
 * GET /file/(fileId)/text (read right): the state of the current version's text, never the text
 * itself. The pages are counted in the database (form feeds), without sending the content.
 */
export async function readTextState(ctx: AuthedCtx, versionId: number): Promise<TextStateResponse> {
  const { version } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "read");
  const [row] = await ctx.db
    .select({
      state: versionTexts.state,
      language: versionTexts.language,
      toolMissing: versionTexts.toolMissing,
      pagesDone: versionTexts.pagesDone,
      searchable: versionTexts.searchableBlobId,
      pages: sql<number>`CASE WHEN ${versionTexts.content} = '' THEN 0 ELSE length(${versionTexts.content}) - length(replace(${versionTexts.content}, E'\\f', '')) + 1 END`,
    })
    .from(versionTexts)
    .where(eq(versionTexts.versionId, version.id));
  if (!row) return { state: "pending", language: "simple", tool_missing: null, pages: 0, pages_done: 0, searchable_pdf: false };
  return {
    state: row.state as TextStateResponse["state"],
    language: row.language,
    tool_missing: row.toolMissing,
    pages: Number(row.pages),
    pages_done: row.pagesDone,
    searchable_pdf: row.searchable !== null && row.state !== "preparing",
  };
}
