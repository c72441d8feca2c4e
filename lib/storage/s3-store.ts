import "server-only";
import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import type { Upload } from "@aws-sdk/lib-storage";
import { HEAD_BYTES, type BlobStore, type ByteRange, type StoredBlob } from "./blob-store";
import { createMd5 } from "./md5";
import { StorageError } from "./storage-error";

export type S3Settings = {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
};

/** The S3_* variables of api.md ("WebDAV and object storage"). */
export function s3SettingsFromEnv(env: Record<string, string | undefined> = process.env): S3Settings {
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new Error("STORAGE=s3 needs S3_BUCKET");
  const endpoint = env.S3_ENDPOINT || undefined;
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  return {
    endpoint,
    region: env.S3_REGION || "us-east-1",
    bucket,
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    // On by default with an endpoint of one's own (MinIO, s3rver, Garage...): few serve virtual hosts.
    forcePathStyle: pathStyle === undefined || pathStyle === "" ? endpoint !== undefined : /^(1|true|yes|on)$/i.test(pathStyle),
  };
}

/** Objects are named `blobs/<id>` (the archive tier's `archive/<id>`): one bucket may hold both. */
const PREFIX = "blobs/";
/** Parts of a multipart write (the smallest S3 allows): at most QUEUE in flight per write, plus the one being gathered (~35 MiB of buffers measured). */
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE = 2;
/** S3 allows 10,000 parts: content announced as larger gets larger parts (some margin left). */
const partBytesFor = (expectedBytes?: number) => Math.max(PART_BYTES, Math.ceil((expectedBytes ?? 0) / 9000 / (1 << 20)) * (1 << 20));
const ID = /^[0-9a-f-]{36}$/;

type Sdk = typeof import("@aws-sdk/client-s3") & Pick<typeof import("@aws-sdk/lib-storage"), "Upload">;
type Connection = { sdk: Sdk; client: S3Client };

let sdk: Promise<Sdk> | undefined;

/** The SDK takes ~170 ms of CPU to load: only a server that stores in S3 pays it, at its first use of the bucket. */
async function loadSdk(): Promise<Sdk> {
  sdk ??= Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/lib-storage")]).then(([client, storage]) => ({ ...client, Upload: storage.Upload }));
  return sdk;
}

/**
 * Blobs in an S3-compatible bucket. Writes stream through a multipart upload (lib-storage), MD5,
 * size and the first bytes computed on the way; an object appears only when its upload completes,
 * so a failed or refused write never leaves a half blob visible. Work files of chunked and tus
 * uploads live in `tempDir` on a filesystem (UPLOAD_WORK_DIR, by default DATA_DIR/tmp) and are
 * uploaded when adopted: several processes share it to resume each other's uploads (docs/deploy.md).
 */
export class S3BlobStore implements BlobStore {
  readonly tempDir: string;
  private readonly settings: S3Settings;
  private connection: Promise<Connection> | undefined;
  private readonly bucket: string;
  private readonly prefix: string;

  /** `prefix`: the "folder" of the bucket this store's objects are named in (`blobs/`, `archive/`). */
  constructor(settings: S3Settings, tempDir: string, prefix = PREFIX) {
    this.tempDir = tempDir;
    this.settings = settings;
    this.bucket = settings.bucket;
    this.prefix = prefix;
  }

  /** The SDK and one client for this store, made at the first call that talks to the bucket. */
  private connect(): Promise<Connection> {
    this.connection ??= loadSdk()
      .then((sdk) => ({ sdk, client: this.newClient(sdk) }))
      .catch((error: unknown) => {
        // Not kept: the next call tries again, as each construction of the store did.
        this.connection = undefined;
        throw error;
      });
    return this.connection;
  }

  private newClient(sdk: Sdk): S3Client {
    const settings = this.settings;
    // The SDK is pinned to its last line for Node 20 (environment.md): its notice of that, printed
    // at each start, tells the operator nothing to do.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
    return new sdk.S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
      // Since 3.729 the SDK adds checksums by default; servers that do not know them (s3rver)
      // store the chunk framing inside the object (environment.md, trap 14).
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      // Downloads hold a socket for as long as the client reads: the default 50 would queue the 51st.
      requestHandler: {
        httpAgent: new http.Agent({ keepAlive: true, maxSockets: 512 }),
        httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 512 }),
      },
    });
  }

  private key(id: string): string {
    if (!ID.test(id)) throw new StorageError("not_found", "Blob not found");
    return this.prefix + id;
  }

  localPath() {
    return null;
  }

  relativePath() {
    return null;
  }

  async put(source: Readable | AsyncIterable<Uint8Array>, options: { maxBytes?: number; signal?: AbortSignal; expectedBytes?: number } = {}): Promise<StoredBlob> {
    const s3 = await this.connect();
    const id = randomUUID();
    const md5 = createMd5(options.expectedBytes);
    let size = 0;
    const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const head = Buffer.allocUnsafe(HEAD_BYTES);
    let headFilled = 0;
    // The first failure seen: the upload's own error (an abort it sends, say) must not hide it.
    let failure: unknown = null;
    const meter = new Transform({
      highWaterMark: 1 << 20,
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > max) {
          failure ??= new StorageError("over_limit", "Storage exhausted: the content exceeds the available quota");
          return done(failure as Error);
        }
        if (headFilled < HEAD_BYTES) headFilled += chunk.copy(head, headFilled, 0, Math.min(chunk.length, HEAD_BYTES - headFilled));
        const behind = md5.update(chunk);
        if (behind) behind.then(() => done(null, chunk), done);
        else done(null, chunk);
      },
    });
    const upload = this.upload(s3, id, meter, undefined, options.expectedBytes);
    const feeding = pipeline(source, meter, { signal: options.signal }).catch((error: unknown) => {
      failure ??= error;
      void upload.abort();
      throw error;
    });
    const uploading = upload.done().catch((error: unknown) => {
      failure ??= error;
      // Nobody reads the meter any more: stop the source rather than wait on it forever.
      meter.destroy(error as Error);
      throw error;
    });
    const [fed, uploaded] = await Promise.allSettled([feeding, uploading]);
    if (fed.status === "rejected" || uploaded.status === "rejected") {
      md5.abort();
      // A write that failed between its last part and its completion may still have landed.
      await this.delete(id).catch(() => {});
      throw storageError(failure ?? (fed.status === "rejected" ? fed.reason : (uploaded as PromiseRejectedResult).reason));
    }
    return { id, size, md5: await md5.digest(), head: new Uint8Array(head.buffer, head.byteOffset, headFilled) };
  }

  /** Uploads a finished work file (chunked or tus) as a new blob, then removes the local file. */
  async adoptFile(file: string, known: { md5?: string; size?: number } = {}): Promise<StoredBlob> {
    const { size } = await fs.stat(file);
    let blob: StoredBlob;
    if (known.md5 && known.size !== undefined) {
      if (known.size !== size) throw new Error(`Work file ${file} holds ${size} bytes, ${known.size} expected`);
      const s3 = await this.connect();
      const id = randomUUID();
      const body = createReadStream(file, { highWaterMark: 1 << 20 });
      try {
        await this.upload(s3, id, body, size).done();
      } catch (error) {
        body.destroy();
        await this.delete(id).catch(() => {});
        throw storageError(error);
      }
      blob = { id, size, md5: known.md5 };
    } else {
      blob = await this.put(createReadStream(file, { highWaterMark: 1 << 20 }), { expectedBytes: size });
    }
    await fs.rm(file, { force: true });
    return blob;
  }

  private upload({ sdk, client }: Connection, id: string, body: Readable, contentLength?: number, expectedBytes = contentLength): Upload {
    return new sdk.Upload({
      client,
      params: { Bucket: this.bucket, Key: this.key(id), Body: body, ContentType: "application/octet-stream", ContentLength: contentLength },
      partSize: partBytesFor(expectedBytes),
      queueSize: QUEUE,
    });
  }

  async read(id: string, range?: ByteRange): Promise<Readable> {
    const { sdk, client } = await this.connect();
    try {
      const answer = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.key(id), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw new StorageError("not_found", "The content of this file is missing");
      throw error;
    }
  }

  async size(id: string): Promise<number | null> {
    return (await this.stat(id))?.size ?? null;
  }

  async stat(id: string): Promise<{ size: number; modifiedAt: Date } | null> {
    const { sdk, client } = await this.connect();
    try {
      const answer = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.key(id) }));
      return { size: answer.ContentLength ?? 0, modifiedAt: answer.LastModified ?? new Date(0) };
    } catch (error) {
      if (isMissing(error) || error instanceof StorageError) return null;
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    const { sdk, client } = await this.connect();
    try {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(id) }));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async *list(): AsyncIterable<string> {
    const { sdk, client } = await this.connect();
    let token: string | undefined;
    do {
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        const id = object.Key?.slice(this.prefix.length);
        if (id && ID.test(id)) yield id;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async freeBytes(): Promise<number | null> {
    return null;
  }

  async ping(): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(new sdk.HeadBucketCommand({ Bucket: this.bucket }));
  }

  /**
   * Aborts the multipart uploads of blobs begun before `before` and never completed (a process
   * killed mid-write): their parts are billed but belong to no object. Servers without
   * ListMultipartUploads (s3rver) answer an error: then nothing is collected and 0 returned.
   */
  async abortAbandonedWrites(before: Date): Promise<number> {
    const { sdk, client } = await this.connect();
    let aborted = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      let page;
      try {
        page = await client.send(
          new sdk.ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
        );
      } catch (error) {
        if (aborted === 0 && isUnsupported(error)) return 0;
        throw error;
      }
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= before) continue;
        await client.send(new sdk.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId })).catch((error: unknown) => {
          if (!isMissing(error)) throw error;
        });
        aborted++;
      }
      if (!page.IsTruncated) return aborted;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return name === "NoSuchKey" || name === "NotFound" || name === "NoSuchUpload" || statusOf(error) === 404;
}

function isUnsupported(error: unknown): boolean {
  const status = statusOf(error);
  const name = (error as { name?: string })?.name;
  return status === 405 || status === 501 || name === "NotImplemented" || name === "MethodNotAllowed";
}

/** An S3 write refused for space (quota of the bucket's owner) is a StorageError (the contract's 507); other failures stay errors. */
function storageError(error: unknown): unknown {
  const name = (error as { name?: string })?.name;
  if (name === "QuotaExceeded" || name === "StorageQuotaExceeded" || name === "EntityTooLarge") {
    return new StorageError("full", "The object store refused the content: storage is full");
  }
  return error;
}
