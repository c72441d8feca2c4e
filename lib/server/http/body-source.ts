import "server-only";
import type { IncomingMessage } from "node:http";
import { PassThrough, Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { detachedBody, discardBody } from "./drain-body";

/**
 * A request body as the upload services read it: the headers, a Node stream of the bytes (taken
 * on first use), and `release()`, called once the service is done, whatever happened. A consumer
 * may destroy `body` to stop reading; the request itself is never cut by that: after `release()`
 * what is left is read and thrown away (a web body in the background; a raw Node request within
 * bounds once the answer is written), so the answer reaches the client whole (environment.md,
 * trap 16). A body never touched is discarded the same way.
 */
export type BodySource = { readonly headers: Headers; readonly body: Readable; release: () => void };

/** The body of a web Request (a route handler under Next). */
export function webBodySource(req: Request, highWaterMark = 1 << 20): BodySource {
  let detached: ReturnType<typeof detachedBody> | undefined;
  let body: Readable | undefined;
  return {
    headers: req.headers,
    get body() {
      if (!body) {
        detached = detachedBody(req);
        body = detached.stream ? Readable.fromWeb(detached.stream as WebReadableStream<Uint8Array>, { highWaterMark }) : Readable.from([]);
      }
      return body;
    },
    release: () => (detached ? detached.discard() : discardBody(req)),
  };
}

/**
 * The body of a raw Node request (the fast paths of server.ts): no web stream, no copy. The
 * consumer reads a view of the request; destroying the view leaves the request whole, and
 * `release()` detaches the view: what is left is drained within bounds once the answer is written
 * (answer-early.ts), never read without limit nor cut before the client has the answer.
 */
export function nodeBodySource(req: IncomingMessage, headers: Headers): BodySource {
  const view = nodeBodyView(req);
  return {
    headers,
    get body() {
      return view.body;
    },
    release: view.release,
  };
}

/** nodeBodySource without the headers, for a handler that reads them from the request itself (WebDAV PUT). */
export function nodeBodyView(req: IncomingMessage): Omit<BodySource, "headers"> {
  let view: PassThrough | undefined;
  // Kept for good: a client that goes away mid-body fails the consumer's stream, and an error
  // after release must never go unheard (an uncaught exception).
  req.on("error", (error) => view?.destroy(error));
  req.once("aborted", () => view?.destroy(new Error("The request body was interrupted")));
  return {
    get body() {
      if (!view) {
        view = new PassThrough({ highWaterMark: 1 << 20 });
        req.pipe(view);
      }
      return view;
    },
    release: () => {
      if (view) req.unpipe(view);
    },
  };
}
