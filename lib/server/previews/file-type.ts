import "server-only";
import { contentKind, type ContentKind } from "./formats";

/** The contract's three viewers: images, documents (PDF and office formats, shown as pages) and videos. */
const VIEWER: Partial<Record<ContentKind, "image" | "document" | "video">> = { image: "image", pdf: "document", office: "document", video: "video" };

/**
 * The contract's `file_type` (File, Share content, File template): `image`, `document` or
 * `video`, decided by the one content classifier (formats.ts) from the stored type and the name,
 * so that every answer names the same file the same way, whatever state its thumbnail is in.
 * Undefined for the other formats.
 */
export function fileTypeOf(mime: string | null | undefined, name: string): "image" | "document" | "video" | undefined {
  return VIEWER[contentKind(mime, name)];
}
