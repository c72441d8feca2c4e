/**
 * A multipart request body as a client sends it: a byte stream in 64 KB chunks (undici's own
 * FormData stream throws when a server cancels it mid-way, which real sockets never do).
 */
export async function multipartStream(form: FormData): Promise<{ body: ReadableStream<Uint8Array>; contentType: string }> {
  const encoded = new Response(form);
  const contentType = encoded.headers.get("content-type")!;
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 65536));
      offset += 65536;
    },
  });
  return { body, contentType };
}
