// The round-robin proxy of the soak's failover part (bench/lib/soak.mjs): two server processes
// behind it, one killed with SIGKILL mid-run and restarted. It runs in the bench's own process so
// that `kill()` takes the list of requests in flight on a backend and sends the signal in one
// synchronous step: no request is dispatched to it or finished by it in between, so "the requests
// in flight on the killed process" is an exact list, not an estimate.
import http from "node:http";

const HEALTH_PATH = "/api/health";
const HEALTH_EVERY_MS = 200;
// Errors that say the backend's process or socket is gone: the backend is taken out of the
// rotation until its health check answers 200 again.
const GONE = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ECONNABORTED"]);

/**
 * Starts the proxy on `port` in front of `backends` (base URLs). Requests are handed out in turn
 * to the backends that are up. A request whose connection to a backend is refused never reached
 * it (its body has not been read yet): it goes to the next backend, as nginx's
 * `proxy_next_upstream error` does. Any other failure of a request already sent is answered 502
 * (or, when the answer's headers are already out, the client's connection is cut) and recorded.
 * Requests are named by their `x-soak-id` header (the soak's clients set one on each).
 */
export async function startRoundRobinProxy({ port, backends }) {
  const state = backends.map((base, index) => ({
    index,
    url: new URL(base),
    // Idle connections are closed after 60 s, before the server's keep-alive of 65 s closes them:
    // otherwise a request sent on a socket just as the server closes it fails (ECONNRESET, EPIPE),
    // a failure of the proxy's, not of the backend. nginx's upstream keepalive_timeout is 60 s too.
    agent: new http.Agent({ keepAlive: true, maxSockets: 512, timeout: 60_000 }),
    up: true,
    /** Entries of the requests sent to this backend and not yet answered in full. */
    inFlight: new Set(),
    served: 0,
    /** When the proxy took it out of the rotation and when its health check brought it back. */
    outages: [],
  }));
  let turn = 0;
  let unnamed = 0;
  const failures = [];
  const kills = [];

  function takeOut(backend) {
    if (!backend.up) return;
    backend.up = false;
    backend.outages.push({ from: Date.now(), to: null });
  }

  function pick(exclude) {
    for (let i = 0; i < state.length; i++) {
      const backend = state[turn++ % state.length];
      if (backend.up && backend !== exclude) return backend;
    }
    return null;
  }

  function forward(req, res, refused = null) {
    const backend = pick(refused);
    const id = req.headers["x-soak-id"] ?? `unnamed-${++unnamed}`;
    if (!backend) {
      failures.push({ id, backend: null, method: req.method, path: req.url, error: "no backend up", at: Date.now() });
      return answer502(res, "no backend up");
    }
    const entry = { id, method: req.method, path: req.url, backend: backend.index, responded: false, sentAt: Date.now() };
    backend.inFlight.add(entry);
    let settled = false;
    let clientGone = false;
    const settle = (error) => {
      if (settled) return;
      settled = true;
      backend.inFlight.delete(entry);
      if (!error || clientGone) {
        backend.served++;
        return;
      }
      if (GONE.has(error.code) || error.message === "socket hang up") takeOut(backend);
      failures.push({ id, backend: backend.index, method: req.method, path: req.url, error: error.code ?? error.message, afterHeaders: entry.responded, sentAt: entry.sentAt, at: Date.now() });
      if (entry.responded) res.destroy();
      else answer502(res, error.code ?? error.message);
      req.resume();
    };
    const upstream = http.request({
      host: backend.url.hostname,
      port: backend.url.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent: backend.agent,
    });
    upstream.on("response", (answer) => {
      entry.responded = true;
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
      answer.on("end", () => settle(null));
      answer.on("aborted", () => settle(Object.assign(new Error("answer cut"), { code: "ECONNRESET" })));
      answer.on("error", (error) => settle(error));
    });
    upstream.on("error", (error) => {
      if (settled) return;
      // Refused: nothing reached the backend and the body is still unread, so another may take it.
      if (error.code === "ECONNREFUSED" && !refused) {
        settled = true;
        backend.inFlight.delete(entry);
        takeOut(backend);
        return forward(req, res, backend);
      }
      settle(error);
    });
    // The body flows only once the connection is open, so a refused connection has read none of it.
    upstream.on("socket", (socket) => {
      if (socket.connecting) socket.once("connect", () => req.pipe(upstream));
      else req.pipe(upstream);
    });
    // A client that gives up is no failure of the backend's.
    res.on("close", () => {
      if (res.writableFinished || settled) return;
      clientGone = true;
      upstream.destroy();
    });
  }

  const server = http.createServer((req, res) => forward(req, res));
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });

  // Backends out of the rotation come back when their health check answers 200.
  const health = setInterval(() => {
    for (const backend of state) {
      if (backend.up || backend.checking) continue;
      backend.checking = true;
      const probe = http.get(new URL(HEALTH_PATH, backend.url), { agent: false, timeout: 1000 }, (answer) => {
        answer.resume();
        answer.on("end", () => {
          backend.checking = false;
          if (answer.statusCode !== 200) return;
          backend.up = true;
          backend.outages.at(-1).to = Date.now();
        });
      });
      probe.on("error", () => (backend.checking = false));
      probe.on("timeout", () => probe.destroy());
    }
  }, HEALTH_EVERY_MS);
  health.unref();

  return {
    base: `http://127.0.0.1:${port}`,
    /**
     * Lists the requests in flight on backend `index` and calls `killFn` (which sends SIGKILL) in
     * the same synchronous step. The backend stays in the rotation: the proxy learns of its death
     * the way a real one does, from refused and reset connections.
     */
    kill(index, killFn) {
      const inFlight = [...state[index].inFlight].map((e) => ({ id: e.id, method: e.method, path: e.path, responded: e.responded }));
      killFn();
      kills.push({ backend: index, at: Date.now(), inFlight });
      return inFlight;
    },
    stats() {
      return {
        backends: state.map((b) => ({ base: b.url.origin, up: b.up, served: b.served, inFlight: b.inFlight.size, outages: [...b.outages] })),
        failures: [...failures],
        kills: [...kills],
      };
    },
    async close() {
      clearInterval(health);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      for (const backend of state) backend.agent.destroy();
    },
  };
}

function answer502(res, reason) {
  if (res.headersSent) return res.destroy();
  const body = JSON.stringify({ code: "bad_gateway", message: `proxy: ${reason}` });
  res.writeHead(502, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), "x-soak-proxy": "1" });
  res.end(body);
}
