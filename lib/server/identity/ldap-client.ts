import "server-only";
import type { ConnectionOptions } from "node:tls";
import type { Client, Entry } from "ldapts";
import { loadOnce } from "../boot/load-once";
import type { LdapSettings } from "./ldap-settings";

let ldapts: typeof import("ldapts") | undefined;

/**
 * ldapts, with whatwg-url beneath it, loads at the first directory operation rather than at every
 * start. Until it has, no ldapts error can exist, which is what isConnectionError relies on.
 */
export const loadLdapts = loadOnce(async () => {
  ldapts = await import("ldapts");
  return ldapts;
});

/** No server of a directory answered (refused, timed out, TLS failed): sign-in is a 503. */
export class DirectoryUnavailableError extends Error {
  constructor(
    message: string,
    readonly server: string,
    readonly stage: "connect" | "tls" | "bind" | "search",
  ) {
    super(message);
  }
}

/** The service account was refused (wrong username or password): a configuration error. */
export class ServiceBindError extends Error {
  constructor(
    message: string,
    readonly server: string,
  ) {
    super(message);
  }
}

/**
 * RFC 4515: a value inside a filter has `*`, `(`, `)`, `\` and NUL written as \XX, so a login
 * such as `*)(uid=*` is a literal string, never filter syntax. Non-ASCII stays UTF-8 (allowed).
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\u0000]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** Bytes of a binary value (objectGUID) written as \XX for a filter. */
export const escapeFilterBytes = (bytes: Buffer) => Array.from(bytes, (b) => `\\${b.toString(16).padStart(2, "0")}`).join("");

/** Attributes ldapts must hand over as bytes (identifiers and pictures). */
export const BINARY_ATTRIBUTES = ["objectGUID", "objectSid", "jpegPhoto", "thumbnailPhoto"];

const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);

/** Whether an error means "could not talk to this server" rather than "the server said no". */
export function isConnectionError(error: unknown): boolean {
  if (ldapts && error instanceof ldapts.ResultCodeError) return false;
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e?.code === "string" && (CONNECTION_CODES.has(e.code) || e.code.startsWith("ERR_TLS") || e.code.includes("CERT") || e.code.startsWith("DEPTH_") || e.code.startsWith("UNABLE_TO"))) return true;
  const message = typeof e?.message === "string" ? e.message : "";
  return /timeout|timed out|socket|connection|closed|certificate|self[- ]signed|TLS|ssl/i.test(message);
}

function tlsOptions(settings: LdapSettings, server: string): ConnectionOptions {
  const host = new URL(server).hostname.replace(/^\[|\]$/g, "");
  return {
    ...(settings.ca.trim() ? { ca: [settings.ca] } : {}),
    rejectUnauthorized: true,
    // An address needs no SNI (and Node warns on one); a name is checked against the certificate.
    ...(/^[\d.]+$|:/.test(host) ? {} : { servername: host }),
  };
}

export type DirectoryConnection = {
  server: string;
  search(base: string, options: { filter: string; attributes: string[]; scope?: "base" | "sub"; sizeLimit?: number; paged?: boolean }): Promise<Entry[]>;
  close(): Promise<void>;
};

async function openClient(settings: LdapSettings, server: string): Promise<Client> {
  const { Client } = await loadLdapts();
  const client = new Client({
    url: server,
    timeout: settings.timeoutMs,
    connectTimeout: settings.timeoutMs,
    tlsOptions: server.toLowerCase().startsWith("ldaps:") ? tlsOptions(settings, server) : undefined,
    strictDN: false,
  });
  if (settings.starttls && server.toLowerCase().startsWith("ldap:")) {
    try {
      await client.startTLS(tlsOptions(settings, server));
    } catch (error) {
      await client.unbind().catch(() => {});
      throw new DirectoryUnavailableError(`StartTLS failed on ${server}: ${(error as Error).message}`, server, "tls");
    }
  }
  return client;
}

function wrap(client: Client, server: string): DirectoryConnection {
  return {
    server,
    async search(base, options) {
      try {
        const { searchEntries } = await client.search(base, {
          scope: options.scope ?? "sub",
          filter: options.filter,
          attributes: options.attributes.filter(Boolean),
          sizeLimit: options.sizeLimit ?? 0,
          paged: options.paged ? { pageSize: 500 } : false,
          explicitBufferAttributes: BINARY_ATTRIBUTES,
        });
        return searchEntries;
      } catch (error) {
        if (isConnectionError(error)) throw new DirectoryUnavailableError(`The directory ${server} stopped answering: ${(error as Error).message}`, server, "search");
        throw error;
      }
    },
    async close() {
      await client.unbind().catch(() => {});
    },
  };
}

/**
 * Connects to the first server that answers (in the configured order) and binds as the service
 * account (anonymously when no username is set). Connection and TLS failures move to the next
 * server; when none answers, DirectoryUnavailableError. A refused service bind is ServiceBindError.
 */
export async function openDirectory(settings: LdapSettings): Promise<DirectoryConnection> {
  let lastError: DirectoryUnavailableError | null = null;
  for (const server of settings.servers) {
    let client: Client | null = null;
    try {
      client = await openClient(settings, server);
      if (settings.bindDN) await client.bind(settings.bindDN, settings.bindPassword);
      else await client.bind("", "");
      return wrap(client, server);
    } catch (error) {
      await client?.unbind().catch(() => {});
      const { InvalidCredentialsError, ResultCodeError } = await loadLdapts();
      if (error instanceof DirectoryUnavailableError) {
        lastError = error;
        continue;
      }
      if (error instanceof InvalidCredentialsError) throw new ServiceBindError(`The directory ${server} refused the service account ${settings.bindDN || "(anonymous)"}: wrong username or password`, server);
      if (isConnectionError(error)) {
        lastError = new DirectoryUnavailableError(`Cannot reach ${server}: ${(error as Error).message}`, server, "connect");
        continue;
      }
      if (error instanceof ResultCodeError) throw new ServiceBindError(`The directory ${server} refused the service account: ${error.message}`, server);
      throw error;
    }
  }
  throw lastError ?? new DirectoryUnavailableError("No directory server is configured", "", "connect");
}

/**
 * Checks a person's password by binding as their entry on a connection of its own (the service
 * connection keeps its identity). An empty password is refused before any bind: LDAP treats it
 * as an unauthenticated bind, which succeeds.
 */
export async function bindAsPerson(settings: LdapSettings, server: string, dn: string, password: string): Promise<boolean> {
  if (!password) return false;
  let client: Client | null = null;
  try {
    client = await openClient(settings, server);
    await client.bind(dn, password);
    return true;
  } catch (error) {
    if (error instanceof DirectoryUnavailableError) throw error;
    if (isConnectionError(error)) throw new DirectoryUnavailableError(`Cannot reach ${server}: ${(error as Error).message}`, server, "bind");
    if (error instanceof (await loadLdapts()).ResultCodeError) return false;
    throw error;
  } finally {
    await client?.unbind().catch(() => {});
  }
}
