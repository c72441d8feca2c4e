import { ApiError, apiErrorOf } from "@/lib/api-client";

/**
 * The web client's chunk size, for tus (the file browser) and for the multipart chunks of
 * /file/upload and drop links: a pause or a lost connection costs at most one chunk, sent again,
 * and the chunks stay large enough to be fast.
 */
export const CHUNK_SIZE = 8 * 1024 * 1024;
const ATTEMPTS = 4;

export type ChunkedUpload = {
  /** Where each chunk is posted (the chunked protocol of /file/upload, api.md). */
  url: string;
  file: File;
  /** A bearer token (a drop link's access token), when the page has one. */
  token?: string | null;
  /** Text parts sent with every chunk, before the file part (a drop link's depositor). */
  fields?: Record<string, string>;
  onProgress: (sent: number) => void;
  signal: AbortSignal;
};

/** The HTTP status of a failed upload, from our ApiError or a tus error; 0 when the server was not reached. */
export function uploadErrorStatus(error: unknown): number {
  if (error instanceof ApiError) return error.status;
  const response = (error as { originalResponse?: { getStatus?: () => number } | null } | null)?.originalResponse;
  return response?.getStatus?.() ?? 0;
}

/**
 * Sends `file` in chunks, each its own request, retried with backoff when the network or the
 * server fails, so a long upload survives a flaky connection. 4xx answers are final (expired
 * link, quota, protection) and thrown as the ApiError the server's body describes.
 */
export async function uploadInChunks({ url, file, token, fields = {}, onProgress, signal }: ChunkedUpload): Promise<void> {
  const chunks = Math.max(1, Math.ceil(file.size / CHUNK_SIZE));
  for (let chunk = 0; chunk < chunks; chunk++) {
    const start = chunk * CHUNK_SIZE;
    const form = new FormData();
    form.append("chunk", String(chunk));
    form.append("chunks", String(chunks));
    form.append("chunksSize", String(CHUNK_SIZE));
    form.append("fileSize", String(file.size));
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append("targetFile", file.slice(start, Math.min(file.size, start + CHUNK_SIZE)), file.name);
    for (let attempt = 1; ; attempt++) {
      try {
        await post(url, form, token, (loaded) => onProgress(start + loaded), signal);
        break;
      } catch (error) {
        const status = uploadErrorStatus(error);
        const retryable = status === 0 || status >= 500;
        if (!retryable || attempt >= ATTEMPTS || signal.aborted) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
      }
    }
  }
  onProgress(file.size);
}

// XMLHttpRequest rather than fetch: fetch reports no upload progress.
function post(url: string, form: FormData, token: string | null | undefined, onLoaded: (n: number) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (e) => onLoaded(e.loaded);
    xhr.onload = () => {
      if (xhr.status < 400) return resolve();
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {}
      reject(apiErrorOf(xhr.status, body, xhr.statusText));
    };
    xhr.onerror = () => reject(new ApiError(0, "network_error", "The server cannot be reached"));
    signal.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.onabort = () => reject(new ApiError(0, "aborted", "Cancelled"));
    xhr.send(form);
  });
}
