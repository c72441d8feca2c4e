import "server-only";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { AppError } from "../errors";
import type { BodySource } from "./body-source";

export type FilePart = { stream: Readable; filename: string; mimeType: string };

export type MultipartFileOptions<T> = {
  /** Name of the part holding the file (the contract's `targetFile`). */
  field: string;
  /** Largest file accepted; one byte more is a 413, detected while streaming. */
  maxFileBytes: number;
  /** Largest whole body (file, other parts, framing); default maxFileBytes + 1 MiB. */
  maxBodyBytes?: number;
  maxFields?: number;
  maxFieldBytes?: number;
  /**
   * Consumes the file stream (to the blob store, an image decoder...). It receives the fields
   * sent before the file part; every field comes back in the result. If it throws, the upload
   * is aborted and its error is the helper's.
   */
  onFile: (file: FilePart, fieldsSoFar: Readonly<Record<string, string>>) => Promise<T>;
  /** Undoes a finished `onFile` (deletes the stored blob...) when the request fails after it. */
  discard?: (result: T) => Promise<void>;
  /** A body without the file part is accepted (result undefined) instead of a 400. */
  fileOptional?: boolean;
  /** Buffer size of the body and file streams; large files move faster with 1 MiB. */
  highWaterMark?: number;
};

export type MultipartFileResult<T> = { fields: Record<string, string>; result: T };

/**
 * Streams the first file part named `field` of a multipart/form-data request to `onFile`,
 * never holding the body in memory (environment.md, trap 2): limits are enforced while bytes
 * flow, other file parts are drained, and the helper returns only once `onFile` has finished,
 * so nothing keeps writing after the response. A refusal (a limit, a bad name, an unknown
 * folder...) stops the parsing at once and the answer goes out while the rest of the body is
 * read and thrown away in the background: the web body stream is never cancelled (trap 16).
 */
export async function streamMultipartFile<T>(
  source: BodySource,
  options: MultipartFileOptions<T> & { fileOptional: true },
): Promise<MultipartFileResult<T | undefined>>;
export async function streamMultipartFile<T>(source: BodySource, options: MultipartFileOptions<T>): Promise<MultipartFileResult<T>>;
export async function streamMultipartFile<T>(source: BodySource, options: MultipartFileOptions<T>): Promise<MultipartFileResult<T | undefined>> {
  const contentType = source.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new AppError("unsupported_media_type", `Send multipart/form-data with the file in a part named "${options.field}"`);
  }

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // Browsers send file names as raw UTF-8 in filename="..." (busboy assumes latin1 otherwise).
      defParamCharset: "utf8",
      ...(options.highWaterMark ? { highWaterMark: options.highWaterMark, fileHwm: options.highWaterMark } : {}),
      // One byte over the limit proves the file too large (busboy also flags a file of exactly the limit).
      limits: { fileSize: options.maxFileBytes + 1, fields: options.maxFields ?? 50, fieldSize: options.maxFieldBytes ?? 64 * 1024, parts: (options.maxFields ?? 50) + 20 },
    });
  } catch (error) {
    throw new AppError("invalid_request", `Malformed multipart request: ${(error as Error).message}`);
  }

  // The pipeline reports the parser's errors; a destroy after the pipeline ended (onFile failing
  // once the whole body was parsed) must not emit an error nobody listens to.
  parser.on("error", () => {});
  const fields: Record<string, string> = {};
  let handling: Promise<T> | undefined;
  let failure: unknown;
  const fail = (error: unknown) => {
    if (failure !== undefined) return;
    failure = error;
    // Destroying the parser destroys the file stream being consumed and ends the pipeline; the
    // body source then drains the rest of the request instead of cutting it.
    // Not synchronously: busboy emits its events mid-parse and breaks if destroyed under its own feet.
    process.nextTick(() => parser.destroy(error instanceof Error ? error : new Error(String(error))));
  };

  parser.on("file", (name, stream, info) => {
    // Destroying the parser errors the file stream of the moment: every one has a listener, or
    // that error would be an uncaughtException.
    stream.on("error", () => {});
    if (name !== options.field || handling || failure !== undefined) {
      stream.resume();
      return;
    }
    stream.once("limit", () => fail(new AppError("payload_too_large", `The file is larger than the limit of ${formatBytes(options.maxFileBytes)}`)));
    const file = { stream, filename: info.filename ?? "", mimeType: info.mimeType };
    const fieldsSoFar = { ...fields };
    // Called in this event, not a microtask later: a body that ends right here destroys the file
    // stream in a nextTick, which runs before microtasks, and a consumer attached after that
    // would wait for bytes that never come (a request that never answered, found by the fuzzing).
    try {
      handling = Promise.resolve(options.onFile(file, fieldsSoFar));
    } catch (error) {
      handling = Promise.reject(error);
    }
    // A consumer that finished without reading everything must not stall the parser.
    handling.then(() => stream.resume(), fail);
  });
  parser.on("field", (name, value, info) => {
    if (info.nameTruncated || info.valueTruncated) fail(new AppError("payload_too_large", `The form field "${name.slice(0, 100)}" is too large`));
    else fields[name] = value;
  });
  for (const event of ["partsLimit", "filesLimit", "fieldsLimit"]) {
    parser.on(event, () => fail(new AppError("payload_too_large", "The form has too many parts")));
  }

  const maxBody = options.maxBodyBytes ?? options.maxFileBytes + 1024 * 1024;
  try {
    await pipeline(source.body, limitBytes(maxBody, fail, options.highWaterMark), parser);
  } catch (error) {
    if (failure === undefined) failure = error instanceof AppError ? error : new AppError("invalid_request", `Malformed or interrupted multipart body: ${(error as Error).message}`);
  } finally {
    // Read to its end: nothing to do. Refused half-way: the rest is drained, never cancelled.
    source.release();
  }
  // busboy finishes once the file stream has ended, not once its consumer is done (trap 2).
  let result: T | undefined;
  if (handling) {
    try {
      result = await handling;
    } catch (error) {
      if (failure === undefined) failure = error;
    }
  }
  if (failure !== undefined) {
    if (result !== undefined && options.discard) await options.discard(result).catch(() => {});
    throw failure;
  }
  if (!handling && !options.fileOptional) throw missingPart(options.field);
  return { fields, result };
}

const missingPart = (field: string) => new AppError("invalid_request", `The multipart body has no file part named "${field}"`);

function limitBytes(max: number, fail: (error: unknown) => void, highWaterMark?: number): Transform {
  let seen = 0;
  return new Transform({
    ...(highWaterMark ? { highWaterMark } : {}),
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) {
        const error = new AppError("payload_too_large", `The request body is larger than the limit of ${formatBytes(max)}`);
        // Recorded first, so the consumer's own error (its stream was cut) does not hide the cause.
        fail(error);
        return done(error);
      }
      done(null, chunk);
    },
  });
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
