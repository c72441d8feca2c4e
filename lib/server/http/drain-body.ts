import "server-only";
/**
 * Refusing a request body safely (environment.md, trap 16; nodejs/undici#5715).
 *
 * Under `next start`, a route handler's `req.body` is a web stream that Next fills from the
 * socket ('data' → controller.enqueue). Cancelling it while bytes still arrive (what
 * `Readable.fromWeb` + a destroyed pipeline does) makes Next's next enqueue throw
 * `ERR_INVALID_STATE: ReadableStream is already closed`: either inside the HTTP parser (the
 * client then gets a bare 400 or a reset instead of our answer) or from a later tick (an
 * `uncaughtException`). So a body is never cancelled: a refused one is read to its end in the
 * background and thrown away, and the answer goes out at once.
 */

/** Reads and discards the rest of `req`'s body in the background; a no-op once it is read or taken. */
export function discardBody(req: Request): void {
  const body = req.body;
  if (!body || body.locked || req.bodyUsed) return;
  drain(body.getReader());
}

/**
 * A view of `req.body` for consumers that may give up half-way (busboy pipelines, tus): cancelling
 * the view, or calling `discard()`, stops forwarding and drains the real body in the background
 * instead of cancelling it. Call `discard()` once the consumer is done, whatever happened (it does
 * nothing when the body was read to its end).
 */
export function detachedBody(req: Request): { stream: ReadableStream<Uint8Array> | null; discard: () => void } {
  const body = req.body;
  if (!body || body.locked) return { stream: null, discard: () => {} };
  const reader = body.getReader();
  let discarding = false;
  let finished = false;
  const discard = () => {
    if (discarding) return;
    discarding = true;
    if (!finished) drain(reader);
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (discarding) return;
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          // The client went away: the consumer sees the error, nothing is left to drain.
          finished = true;
          if (!discarding) controller.error(error);
          return;
        }
        if (chunk.done) finished = true;
        // Read after the consumer gave up: the drain owns the rest, this chunk is dropped.
        if (discarding) return;
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel() {
        discard();
      },
    },
    // Read from the socket only when the consumer asks: no second buffer besides the consumer's.
    { highWaterMark: 0 },
  );
  return { stream, discard };
}

/**
 * Wraps a handler of a route that takes a body: whatever it answers, a body it did not read
 * (refused before reading: unknown link, no session, bad query...) is drained, not left behind.
 */
export function drainingBody<Rest extends unknown[]>(handler: (req: Request, ...rest: Rest) => Promise<Response>) {
  return async (req: Request, ...rest: Rest): Promise<Response> => {
    try {
      return await handler(req, ...rest);
    } finally {
      discardBody(req);
    }
  };
}

function drain(reader: ReadableStreamDefaultReader<Uint8Array>) {
  void (async () => {
    try {
      for (;;) {
        const { done } = await reader.read();
        if (done) return;
      }
    } catch {
      // The client closed the connection: nothing more will come.
    }
  })();
}
