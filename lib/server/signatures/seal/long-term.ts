import "server-only";
/**
 * What makes a seal verifiable for years (PAdES baseline, ETSI EN 319 142-1): B-T, an RFC 3161
 * timestamp over the signature value from SIGNING_TSA_URL; B-LT on top, the chain and its
 * OCSP answers or CRLs in a DSS when the issuers publish them. Without a TSA a seal stays B-B.
 * Read from the environment on the main thread and handed to the seal worker with each task.
 */
export type TsaSettings = { url: string; user?: string; password?: string; policy?: string };
export type LongTermSettings = { tsa?: TsaSettings; timeoutMs: number };

const DEFAULT_TIMEOUT_MS = 10_000;

export function longTermSettings(env: NodeJS.ProcessEnv = process.env): LongTermSettings {
  const timeout = Number(env.SIGNING_NETWORK_TIMEOUT_MS);
  const timeoutMs = Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS;
  const url = env.SIGNING_TSA_URL?.trim();
  if (!url) return { timeoutMs };
  if (!/^https?:\/\//i.test(url)) throw new Error(`SIGNING_TSA_URL must be an http(s) URL, not ${url}`);
  const policy = env.SIGNING_TSA_POLICY?.trim();
  if (policy && !/^\d+(\.\d+)+$/.test(policy)) throw new Error(`SIGNING_TSA_POLICY must be an OID (1.2.3.4), not ${policy}`);
  const user = env.SIGNING_TSA_USER?.trim();
  return { tsa: { url, ...(user ? { user, password: env.SIGNING_TSA_PASSWORD ?? "" } : {}), ...(policy ? { policy } : {}) }, timeoutMs };
}

/** The largest answer read from a TSA, an OCSP responder or a CRL distribution point. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * One HTTP exchange with a TSA, an OCSP responder or a CRL distribution point, within
 * `timeoutMs` (connection and body), its body as bytes; anything but a 2xx throws.
 */
export async function fetchBytes(url: string, init: RequestInit, timeoutMs: number): Promise<Uint8Array> {
  if (!/^https?:\/\//i.test(url)) throw new Error(`not an http(s) URL: ${url}`);
  const response = await fetch(url, { ...init, redirect: "follow", signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`${url} answered HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get("content-length"));
  if (declared > MAX_ANSWER_BYTES) throw new Error(`${url} answered ${declared} bytes`);
  const body = new Uint8Array(await response.arrayBuffer());
  if (body.length > MAX_ANSWER_BYTES) throw new Error(`${url} answered ${body.length} bytes`);
  return body;
}

/** Why an exchange failed, as the seal's error says it. */
export function networkFailure(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError" || error.name === "AbortError") return `no answer within ${timeoutMs} ms`;
  // fetch says "fetch failed"; the reason (ECONNREFUSED, a certificate...) is its cause.
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
