import "server-only";
import { AppError } from "../errors";
import { detachedBody } from "./drain-body";

/** api.md, Limits: a JSON body over 1 MiB is a 413 before it is read. */
export const JSON_BODY_LIMIT = 1024 * 1024;

const tooLarge = () => new AppError("payload_too_large", `The request body is larger than the limit of ${JSON_BODY_LIMIT / 1024 / 1024} MiB`);

/**
 * The JSON body of a request: refused by its Content-Length before a byte is read, or while
 * arriving when it comes without one. A refused body is still read to its end in the background
 * and thrown away, never cancelled (drain-body.ts; environment.md, trap 16).
 */
export async function readJson(req: Request): Promise<unknown> {
  const type = req.headers.get("content-type")?.toLowerCase() ?? "";
  const isForm = type.startsWith("application/x-www-form-urlencoded");
  if (type && !isForm && !/^application\/(.+\+)?json\b/.test(type) && !type.startsWith("text/plain")) {
    throw new AppError("unsupported_media_type", "The body must be JSON (Content-Type: application/json)");
  }
  const declared = Number(req.headers.get("content-length") ?? NaN);
  // route() drains what a refusal leaves unread.
  if (declared > JSON_BODY_LIMIT) throw tooLarge();
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
  const { stream, discard } = detachedBody(req);
  if (!stream) return "";
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let seen = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      seen += value.byteLength;
      if (seen > limit) throw tooLarge();
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    discard();
  }
}
