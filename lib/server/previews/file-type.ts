import { contentKind, FILE_TYPE } from "./formats";

/**
 * The contract's `file_type` (File, Share content, File template): `image`, `document` or
 * `video`, decided by the one content classifier (formats.ts) from the stored type and the name,
 * so that every answer names the same file the same way. Undefined for formats without a preview.
 */
export function fileTypeOf(mime: string | null | undefined, name: string): "image" | "document" | "video" | undefined {
  return FILE_TYPE[contentKind(mime, name)];
}
