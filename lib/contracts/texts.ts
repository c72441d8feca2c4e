import { z } from "zod";

/**
 * GET /file/(fileId)/text: where the searchable text of the file's current version stands.
 * `state`: pending, preparing (OCR under way: `pages_done` of `pages`), available, failed, none
 * (the format holds no text), unavailable (`tool_missing` names the tool the format needs, not
 * installed here). `tool_missing` may also come with available: the text lacks the pages that
 * tool would have read (a PDF's scanned pages without Tesseract). `language` is the text search
 * configuration the text is indexed with. `pages`: the pages of a PDF, scan or presentation (the
 * sheets of a spreadsheet) the text holds. `searchable_pdf`: a searchable PDF of the scan may be
 * downloaded (GET /file/(fileId)/download?searchable=1).
 */
export const textStateResponse = z.object({
  state: z.enum(["pending", "preparing", "available", "failed", "none", "unavailable"]),
  language: z.enum(["simple", "english", "french", "german", "spanish", "italian", "portuguese"]),
  tool_missing: z.string().nullable(),
  pages: z.number().int().nonnegative(),
  pages_done: z.number().int().nonnegative(),
  searchable_pdf: z.boolean(),
});
export type TextStateResponse = z.infer<typeof textStateResponse>;
