import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/server/errors";
import { webBodySource } from "@/lib/server/http/body-source";
import { streamMultipartFile, type FilePart } from "@/lib/server/http/multipart";
import { multipartStream } from "./multipart-body";

// The streaming multipart helper behind picture uploads (and, later, file uploads).

// A body as a route handler under Next sees it.
const rawRequest = (body: BodyInit, headers: Record<string, string> = {}) =>
  webBodySource(new Request("http://coffre.test/upload", { method: "POST", body, headers, duplex: "half" } as RequestInit));

async function request(form: FormData) {
  const { body, contentType } = await multipartStream(form);
  return rawRequest(body, { "content-type": contentType });
}

async function countBytes(file: FilePart): Promise<number> {
  let n = 0;
  for await (const chunk of file.stream) n += (chunk as Buffer).length;
  return n;
}

/** A hand-written multipart body whose file part is cut off before its closing boundary. */
function truncatedBody(): { body: string; type: string } {
  const b = "XyZboundary";
  return { body: `--${b}\r\nContent-Disposition: form-data; name="targetFile"; filename="a.txt"\r\n\r\nhalf a fi`, type: `multipart/form-data; boundary=${b}` };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("streamMultipartFile", () => {
  it("streams the named file part and collects the fields around it, skipping other files", async () => {
    const form = new FormData();
    form.append("before", "1");
    form.append("other", new Blob(["x".repeat(5000)]), "other.bin");
    form.append("targetFile", new Blob(["y".repeat(3000)]), "wanted.txt");
    form.append("after", "2");
    let seenFields: Record<string, string> = {};
    const { fields, result } = await streamMultipartFile(await request(form), {
      field: "targetFile",
      maxFileBytes: 4000,
      onFile: async (file, soFar) => {
        seenFields = { ...soFar };
        expect(file.filename).toBe("wanted.txt");
        return countBytes(file);
      },
    });
    expect(result).toBe(3000);
    expect(seenFields).toEqual({ before: "1" });
    expect(fields).toEqual({ before: "1", after: "2" });
  });

  it("accepts a file of exactly the limit and refuses one byte more with 413", async () => {
    const exact = new FormData();
    exact.append("targetFile", new Blob([new Uint8Array(1024)]), "a");
    const ok = await streamMultipartFile(await request(exact), { field: "targetFile", maxFileBytes: 1024, onFile: countBytes });
    expect(ok.result).toBe(1024);

    const over = new FormData();
    over.append("targetFile", new Blob([new Uint8Array(1025)]), "a");
    const error = await failure(streamMultipartFile(await request(over), { field: "targetFile", maxFileBytes: 1024, onFile: countBytes }));
    expect(error.code).toBe("payload_too_large");
    expect(error.message).toContain("1 KB");
  });

  it("stops reading a huge body as soon as the file passes the limit", async () => {
    const boundary = "LazyBoundary";
    const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="targetFile"; filename="big"\r\n\r\n`);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = pulled === 0 ? head : new Uint8Array(256 * 1024);
        pulled += chunk.length;
        // 1 GiB announced; never sent unless read.
        if (pulled > 1024 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const error = await failure(
      streamMultipartFile(rawRequest(body, { "content-type": `multipart/form-data; boundary=${boundary}` }), { field: "targetFile", maxFileBytes: 4 * 1024 * 1024, onFile: countBytes }),
    );
    expect(error.code).toBe("payload_too_large");
    expect(pulled).toBeLessThan(8 * 1024 * 1024);
  });

  it("refuses a body over its own limit, even when the extra bytes are in other parts", async () => {
    const form = new FormData();
    form.append("junk", new Blob([new Uint8Array(200_000)]), "junk");
    form.append("targetFile", new Blob(["small"]), "a");
    const error = await failure(streamMultipartFile(await request(form), { field: "targetFile", maxFileBytes: 100, maxBodyBytes: 50_000, onFile: countBytes }));
    expect(error.code).toBe("payload_too_large");
  });

  it("aborts with the consumer's error", async () => {
    const form = new FormData();
    form.append("targetFile", new Blob([new Uint8Array(500_000)]), "a");
    const error = await failure(
      streamMultipartFile(await request(form), {
        field: "targetFile",
        maxFileBytes: 1_000_000,
        onFile: async (file) => {
          file.stream.once("data", () => file.stream.pause());
          await new Promise((r) => setTimeout(r, 5));
          throw new AppError("insufficient_storage", "full");
        },
      }),
    );
    expect(error.code).toBe("insufficient_storage");
  });

  it("returns a limit error only once the consumer has cleaned up", async () => {
    const form = new FormData();
    form.append("targetFile", new Blob([new Uint8Array(300_000)]), "a");
    let cleanedUp = false;
    const error = await failure(
      streamMultipartFile(await request(form), {
        field: "targetFile",
        maxFileBytes: 100_000,
        onFile: async (file) => {
          try {
            return await countBytes(file);
          } catch (cut) {
            await new Promise((r) => setTimeout(r, 50)); // e.g. removing a partial file
            cleanedUp = true;
            throw cut;
          }
        },
      }),
    );
    expect(error.code).toBe("payload_too_large");
    expect(cleanedUp).toBe(true);
  });

  it("drains a file its consumer did not read", async () => {
    const form = new FormData();
    form.append("targetFile", new Blob([new Uint8Array(300_000)]), "a");
    form.append("after", "yes");
    const { fields, result } = await streamMultipartFile(await request(form), { field: "targetFile", maxFileBytes: 1_000_000, onFile: async () => "ignored" });
    expect(result).toBe("ignored");
    expect(fields.after).toBe("yes");
  });

  it("discards a finished consumer's result when the request fails afterwards", async () => {
    const form = new FormData();
    form.append("targetFile", new Blob(["abc"]), "a");
    form.append("note", "z".repeat(2000));
    const discarded: number[] = [];
    const error = await failure(
      streamMultipartFile(await request(form), { field: "targetFile", maxFileBytes: 100, maxFieldBytes: 1000, onFile: countBytes, discard: async (n) => void discarded.push(n) }),
    );
    expect(error.code).toBe("payload_too_large");
    expect(discarded).toEqual([3]);
  });

  it("refuses missing parts, truncated bodies, a missing boundary and other content types", async () => {
    const noFile = new FormData();
    noFile.append("x", "1");
    expect((await failure(streamMultipartFile(await request(noFile), { field: "targetFile", maxFileBytes: 10, onFile: countBytes }))).code).toBe("invalid_request");
    const cut = truncatedBody();
    const truncated = await failure(streamMultipartFile(rawRequest(cut.body, { "content-type": cut.type }), { field: "targetFile", maxFileBytes: 100, onFile: countBytes }));
    expect(truncated.code).toBe("invalid_request");
    const noBoundary = await failure(streamMultipartFile(rawRequest("x", { "content-type": "multipart/form-data" }), { field: "targetFile", maxFileBytes: 10, onFile: countBytes }));
    expect(noBoundary.code).toBe("invalid_request");
    const json = await failure(streamMultipartFile(rawRequest("{}", { "content-type": "application/json" }), { field: "targetFile", maxFileBytes: 10, onFile: countBytes }));
    expect(json.code).toBe("unsupported_media_type");
  });
});
