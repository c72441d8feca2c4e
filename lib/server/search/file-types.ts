import "server-only";
import { or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { FileTypeFilter } from "@/lib/contracts/folders";

type Kind = { mimes?: string[]; mimePrefix?: string; extensions?: string[] };

/**
 * What each `types` value of folder search keeps (api.md). Images, videos, sounds and PDFs are
 * known from the stored (sniffed) MIME type alone, as previews know them (previews/formats.ts);
 * office formats and text also from the name's extension, their sniffed type being often a zip
 * or plain text.
 */
const KINDS: Record<FileTypeFilter, Kind> = {
  document: {
    mimes: [
      "application/msword",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.oasis.opendocument.text",
      "application/rtf",
      "text/rtf",
    ],
    extensions: ["doc", "docx", "odt", "rtf"],
  },
  spreadsheet: {
    mimes: ["application/vnd.ms-excel", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "application/vnd.oasis.opendocument.spreadsheet", "text/csv"],
    extensions: ["xls", "xlsx", "ods", "csv"],
  },
  presentation: {
    mimes: ["application/vnd.ms-powerpoint", "application/vnd.openxmlformats-officedocument.presentationml.presentation", "application/vnd.oasis.opendocument.presentation"],
    extensions: ["ppt", "pptx", "odp"],
  },
  pdf: { mimes: ["application/pdf"] },
  image: { mimePrefix: "image/" },
  video: { mimePrefix: "video/" },
  audio: { mimePrefix: "audio/" },
  text: { mimes: ["text/plain", "text/markdown"], extensions: ["txt", "md", "markdown"] },
  archive: {
    mimes: ["application/zip", "application/x-tar", "application/gzip", "application/x-7z-compressed", "application/x-rar-compressed", "application/vnd.rar"],
    extensions: ["zip", "tar", "gz", "tgz", "7z", "rar"],
  },
};

/** Files of any of `types`: their version's MIME type (`mime`) or their name's extension (`nameKey`, lowercased). */
export function typeMatch(types: FileTypeFilter[], mime: AnyPgColumn, nameKey: AnyPgColumn): SQL {
  const kinds = types.map((t) => KINDS[t]);
  const mimes = kinds.flatMap((k) => k.mimes ?? []);
  const prefixes = kinds.flatMap((k) => (k.mimePrefix ? [k.mimePrefix] : []));
  const extensions = kinds.flatMap((k) => k.extensions ?? []);
  const type = sql`lower(split_part(${mime}, ';', 1))`;
  return or(
    mimes.length ? sql`${type} IN (${sql.join(mimes.map((m) => sql`${m}`), sql`, `)})` : undefined,
    ...prefixes.map((p) => sql`${type} LIKE ${`${p}%`}`),
    extensions.length ? sql`substring(${nameKey} from '\\.([^.]+)$') IN (${sql.join(extensions.map((e) => sql`${e}`), sql`, `)})` : undefined,
  )!;
}
