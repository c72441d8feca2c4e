import "server-only";
import { getBlobStore } from "@/lib/server/blobs/stores";

/** The first `maxBytes` of a blob decoded as UTF-8 (invalid sequences become U+FFFD). */
export async function readUtf8Beginning(blobId: string | null, size: number, maxBytes: number): Promise<string> {
  if (!blobId || size === 0) return "";
  const stream = await getBlobStore().read(blobId, { start: 0, end: Math.min(size, maxBytes) - 1 });
  const decoder = new TextDecoder("utf-8");
  let text = "";
  for await (const chunk of stream) text += decoder.decode(chunk as Buffer, { stream: true });
  return text + decoder.decode();
}
