import { AppError } from "../errors";

/** api.md, Limits: a JSON body over 1 MiB is a 413 before it is read. */
export const JSON_BODY_LIMIT = 1024 * 1024;

const tooLarge = () => new AppError("payload_too_large", `The request body is larger than the limit of ${JSON_BODY_LIMIT / 1024 / 1024} MiB`);

/**
 * The JSON body of a request: refused by its Content-Length before a byte is read, or while
 * arriving when it comes without one. A refused body is still read to its end in the background
 * and thrown away: under Next, the request's web stream is fed by a loop that cannot be told to
 * stop, and cancelling that stream makes its next write throw outside any handler
 * (environment.md, trap 16).
 */
export async function readJson(req: Request): Promise<unknown> {
  const type = req.headers.get("content-type")?.toLowerCase() ?? "";
  const isForm = type.startsWith("application/x-www-form-urlencoded");
  if (type && !isForm && !/^application\/(.+\+)?json\b/.test(type) && !type.startsWith("text/plain")) {
    discardBody(req);
    throw new AppError("unsupported_media_type", "The body must be JSON (Content-Type: application/json)");
  }
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > JSON_BODY_LIMIT) {
    discardBody(req);
    throw tooLarge();
  }
  const text = await readTextUpTo(req, JSON_BODY_LIMIT);
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    // `curl -d '{...}'` labels JSON as a form; a real form body is accepted as flat fields.
    if (isForm) return Object.fromEntries(new URLSearchParams(text));
    throw new AppError("invalid_json", "The body is not valid JSON");
  }
}

async function readTextUpTo(req: Request, limit: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    seen += value.byteLength;
    if (seen > limit) {
      drain(reader);
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** Reads what is left of a refused body and throws it away, never cancelling the stream. */
export function discardBody(req: Request): void {
  if (!req.body || req.bodyUsed || req.body.locked) return;
  drain(req.body.getReader());
}

function drain(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  const next = (): Promise<void> => reader.read().then(({ done }) => (done ? undefined : next()));
  // A client that hangs up mid-body errors the stream: nothing is left to answer.
  next().catch(() => {});
}
