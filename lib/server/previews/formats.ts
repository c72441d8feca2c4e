import "server-only";
/**
 * What a version's content is, for previews and text extraction. Decided from the stored MIME
 * type, which the server sniffed from the bytes at upload (commit-upload). Images and PDFs come
 * from that type alone, never from the name: a "report.pdf" the sniffer did not find to be a PDF
 * is no PDF. Text, HTML and office formats may also be recognised by the name's extension.
 */
export type ContentKind = "image" | "pdf" | "video" | "audio" | "text" | "html" | "office" | "other";

const IMAGE_MIMES = new Set(["image/jpeg", "image/png", "image/webp", "image/gif", "image/tiff", "image/avif", "image/svg+xml"]);
const TEXT_MIMES = new Set([
  "application/json",
  "application/xml",
  "application/javascript",
  "application/x-javascript",
  "application/typescript",
  "application/x-sh",
  "application/x-yaml",
  "application/yaml",
  "application/sql",
  "application/x-httpd-php",
]);
const TEXT_EXTENSIONS = new Set([
  "txt", "md", "markdown", "csv", "tsv", "json", "xml", "yaml", "yml", "toml", "ini", "log", "sql",
  "js", "mjs", "cjs", "ts", "tsx", "jsx", "py", "rb", "go", "rs", "java", "kt", "c", "h", "cpp", "hpp", "cs",
  "php", "sh", "bash", "css", "scss", "vue", "svelte", "tex", "rst", "srt", "vtt",
]);
const OFFICE_EXTENSIONS = new Set(["doc", "docx", "odt", "rtf", "xls", "xlsx", "ods", "ppt", "pptx", "odp"]);

export function contentKind(mime: string | null | undefined, name: string): ContentKind {
  const type = (mime ?? "").toLowerCase().split(";")[0].trim();
  const extension = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  if (IMAGE_MIMES.has(type)) return "image";
  if (type === "application/pdf") return "pdf";
  if (type.startsWith("video/")) return "video";
  if (type.startsWith("audio/")) return "audio";
  if (type === "text/html" || type === "application/xhtml+xml" || extension === "html" || extension === "htm") return "html";
  if (type.startsWith("text/") || TEXT_MIMES.has(type) || type.endsWith("+json") || type.endsWith("+xml") || TEXT_EXTENSIONS.has(extension)) return "text";
  if (OFFICE_EXTENSIONS.has(extension) || type.includes("officedocument") || type.includes("opendocument") || type === "application/msword") return "office";
  return "other";
}

/** The contract's file_type for a kind whose thumbnail can be made. */
export const FILE_TYPE: Partial<Record<ContentKind, "image" | "document" | "video">> = { image: "image", pdf: "document", video: "video" };
