import type { FileResponse } from "@/lib/queries/files";

export type PreviewKind = "image" | "pdf" | "office" | "video" | "audio" | "text" | "none";

const TEXT_EXTENSIONS = new Set(["txt", "md", "csv", "json", "xml", "yml", "yaml", "log", "ini", "conf", "js", "ts", "tsx", "jsx", "py", "rb", "go", "rs", "java", "c", "h", "cpp", "cs", "php", "sh", "sql", "css", "html", "toml"]);
const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "gif", "webp", "avif", "bmp", "svg"]);
const VIDEO_EXTENSIONS = new Set(["mp4", "webm", "ogv", "mov", "m4v"]);
const AUDIO_EXTENSIONS = new Set(["mp3", "ogg", "oga", "wav", "flac", "m4a", "aac", "opus"]);
/** Shown through the PDF the server's previews job makes of them (LibreOffice). */
const OFFICE_EXTENSIONS = new Set(["doc", "docx", "odt", "rtf", "xls", "xlsx", "ods", "ppt", "pptx", "odp"]);

/** What the browser can show of a file, from its type (or its extension when the type is generic). */
export function previewKind(file: Pick<FileResponse, "name" | "mime">): PreviewKind {
  const mime = file.mime ?? "";
  const extension = file.name.includes(".") ? file.name.split(".").pop()!.toLowerCase() : "";
  if (mime === "application/pdf" || extension === "pdf") return "pdf";
  if (mime.startsWith("image/") || IMAGE_EXTENSIONS.has(extension)) return "image";
  if (mime.startsWith("video/") || VIDEO_EXTENSIONS.has(extension)) return "video";
  if (mime.startsWith("audio/") || AUDIO_EXTENSIONS.has(extension)) return "audio";
  if (mime.startsWith("text/") || mime === "application/json" || TEXT_EXTENSIONS.has(extension)) return "text";
  if (OFFICE_EXTENSIONS.has(extension) || mime.includes("officedocument") || mime.includes("opendocument") || mime === "application/msword") return "office";
  return "none";
}
