import "server-only";
import type { Readable } from "node:stream";
import { AppError } from "../errors";
import type { BodySource } from "./body-source";

/** api.md, Limits: a JSON body over 1 MiB is a 413 before it is read. */
export const JSON_BODY_LIMIT = 1024 * 1024;

const tooLarge = (limit: number) =>
  new AppError("payload_too_large", limit >= 1024 * 1024 ? `The request body is larger than the limit of ${limit / 1024 / 1024} MiB` : `The request body is larger than the limit of ${Math.round(limit / 1024)} KiB`);

/**
 * The JSON body of a request (at most `limit` bytes, 1 MiB unless a route asks for less):
 * refused by its Content-Length before a byte is read, or while
 * arriving when it comes without one. What a refusal leaves unread is the caller's to release
 * (body-source.ts: drained, never cancelled; environment.md, trap 16).
 */
export async function readJson(source: BodySource, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const type = source.headers.get("content-type")?.toLowerCase() ?? "";
  const isForm = type.startsWith("application/x-www-form-urlencoded");
  if (type && !isForm && !/^application\/(.+\+)?json\b/.test(type) && !type.startsWith("text/plain")) {
    throw new AppError("unsupported_media_type", "The body must be JSON (Content-Type: application/json)");
  }
  const declared = Number(source.headers.get("content-length") ?? NaN);
  if (declared > limit) throw tooLarge(limit);
  const text = await readTextUpTo(source.body, limit);
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    // `curl -d '{...}'` labels JSON as a form; a real form body is accepted as flat fields.
    if (isForm) return Object.fromEntries(new URLSearchParams(text));
    throw new AppError("invalid_json", "The body is not valid JSON");
  }
}

async function readTextUpTo(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let seen = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    seen += chunk.length;
    if (seen > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, seen).toString("utf8");
}
