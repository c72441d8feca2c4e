import http from "node:http";

/**
 * Sends a request whose body is produced slowly, calling `onProgress` with the bytes sent so far;
 * resolves with the status, or with an error when the connection dies (the server was killed).
 */
export function streamRequest(options: {
  url: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  head?: Buffer;
  totalBytes: number;
  tail?: Buffer;
  block: Buffer;
  onProgress?: (sent: number) => void;
}): Promise<{ status?: number; body?: string; error?: Error }> {
  return new Promise((resolve) => {
    const target = new URL(options.path, options.url);
    const bodyLength = (options.head?.length ?? 0) + options.totalBytes + (options.tail?.length ?? 0);
    const req = http.request(target, { method: options.method, headers: { ...options.headers, "content-length": String(bodyLength) } }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode, body }));
      res.on("error", (error) => resolve({ error }));
    });
    req.on("error", (error) => resolve({ error }));
    let sent = 0;
    const pump = () => {
      while (sent < options.totalBytes) {
        const slice = options.block.subarray(0, Math.min(options.block.length, options.totalBytes - sent));
        sent += slice.length;
        options.onProgress?.(sent);
        if (!req.write(slice)) {
          req.once("drain", () => setTimeout(pump, 2));
          return;
        }
      }
      if (options.tail) req.write(options.tail);
      req.end();
    };
    if (options.head) req.write(options.head);
    pump();
  });
}

/** The framing of a one-file multipart body around `fileBytes` bytes of content. */
export function multipartFrame(fields: Record<string, string>, fileName: string) {
  const boundary = `----coffre${Date.now()}`;
  let head = "";
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="targetFile"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, head: Buffer.from(head), tail: Buffer.from(`\r\n--${boundary}--\r\n`) };
}
