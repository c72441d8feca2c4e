import "server-only";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";

/**
 * Answering a request whose body is still arriving, on the raw Node request (server.ts's fast
 * paths: uploads, tus, deposits, WebDAV, OAuth2): an early refusal, 400 to 507, before or while
 * the body is read (environment.md, trap 16; issue 25, finding 19).
 *
 * Closing the connection at once makes the client's next write meet a reset, and a client that
 * had not read the answer yet loses it (EPIPE). Reading the rest to its end lets anyone make the
 * server read without limit. So the answer is written whole at once (its length declared, so the
 * client has all of it), then the rest of the body is read and thrown away, at most
 * DRAIN_MAX_BYTES and DRAIN_MAX_MS, and only then does the response end: the connection is kept
 * when the body ended within the bound, closed otherwise. An answer to a body declared larger than
 * the bound says `Connection: close` from the start.
 */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024;
export const DRAIN_MAX_MS = 5_000;

/** The body of `req` has not all arrived: an answer now is an early one. */
export const isBodyArriving = (req: IncomingMessage) => !req.complete && !req.destroyed;

/**
 * Writes a whole answer (headers and a small body) to `res`; when the request's body is still
 * arriving, as described above. Headers are written synchronously (a bad header throws to the
 * caller); the promise, settled once the response has ended, never rejects.
 */
export function writeAnswer(res: ServerResponse, status: number, headers: OutgoingHttpHeaders, body?: Uint8Array): Promise<void> {
  const req = res.req;
  if (!isBodyArriving(req)) {
    res.writeHead(status, headers).end(body);
    return Promise.resolve();
  }
  const declared = Number(req.headers["content-length"]);
  const overBound = Number.isSafeInteger(declared) && declared > DRAIN_MAX_BYTES;
  res.writeHead(status, overBound ? { ...headers, Connection: "close" } : headers);
  if (body?.length) res.write(body);
  else res.flushHeaders();
  return drainBody(req).then((whole) => {
    // Past the bound the connection goes once the answer is flushed (Node does it itself after a
    // `Connection: close`; a chunked body that outgrew the bound gets the same).
    if (!whole) res.once("finish", () => req.socket?.destroySoon());
    res.end();
  });
}

/** Reads and drops what is left of `req`'s body: true when it ended within the bounds. */
function drainBody(req: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0;
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) settle(false);
    };
    const ended = () => settle(true);
    const closed = () => settle(req.complete);
    const ignore = () => {};
    const timer = setTimeout(() => settle(false), DRAIN_MAX_MS);
    function settle(whole: boolean) {
      clearTimeout(timer);
      req.off("data", count);
      req.off("end", ended);
      req.off("close", closed);
      req.off("error", ignore);
      resolve(whole);
    }
    req.on("data", count);
    req.once("end", ended);
    req.once("close", closed);
    // A client that goes away mid-body: its reset is no error of ours.
    req.on("error", ignore);
    req.resume();
  });
}
