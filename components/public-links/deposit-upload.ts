import { linkAccess, type LinkKind } from "@/lib/queries/public-links";

/** Chunks of a deposit: a lost connection costs at most one chunk, which is sent again. */
export const CHUNK_SIZE = 8 * 1024 * 1024;
const ATTEMPTS = 4;

export class DepositError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One file dropped through a drop link, with the chunked protocol of /file/upload (api.md: the
 * deposit takes the same parts): each chunk is its own request, retried with backoff when the
 * network or the server fails, so a long deposit survives a flaky connection. 4xx answers are
 * final (expired link, quota, protection) and reported as they are.
 */
export async function depositFile(key: string, file: File, onProgress: (sent: number) => void, signal: AbortSignal): Promise<void> {
  const chunks = Math.max(1, Math.ceil(file.size / CHUNK_SIZE));
  for (let chunk = 0; chunk < chunks; chunk++) {
    const start = chunk * CHUNK_SIZE;
    const slice = file.slice(start, Math.min(file.size, start + CHUNK_SIZE));
    for (let attempt = 1; ; attempt++) {
      try {
        await sendChunk(key, file, slice, chunk, chunks, (loaded) => onProgress(start + loaded), signal);
        break;
      } catch (error) {
        const retryable = !(error instanceof DepositError) || error.status === 0 || error.status >= 500;
        if (!retryable || attempt >= ATTEMPTS || signal.aborted) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
      }
    }
  }
  onProgress(file.size);
}

function sendChunk(key: string, file: File, slice: Blob, chunk: number, chunks: number, onLoaded: (n: number) => void, signal: AbortSignal): Promise<void> {
  const form = new FormData();
  form.append("chunk", String(chunk));
  form.append("chunks", String(chunks));
  form.append("chunksSize", String(CHUNK_SIZE));
  form.append("fileSize", String(file.size));
  form.append("targetFile", slice, file.name);
  const kind: LinkKind = "ulink";
  const token = linkAccess.get(kind, key);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/ulink/key/${encodeURIComponent(key)}/upload`);
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (e) => onLoaded(e.loaded);
    xhr.onload = () => {
      if (xhr.status < 400) return resolve();
      let body: { error?: string; code?: string } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {}
      reject(new DepositError(xhr.status, body.code ?? `http_${xhr.status}`, body.error ?? xhr.statusText));
    };
    xhr.onerror = () => reject(new DepositError(0, "network_error", "The server cannot be reached"));
    signal.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.onabort = () => reject(new DepositError(0, "aborted", "Cancelled"));
    xhr.send(form);
  });
}
