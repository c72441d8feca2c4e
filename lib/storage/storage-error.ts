import "server-only";
/**
 * What a blob store refuses, in its own words: the server maps each code to the contract's error
 * (lib/server/errors.ts), so this layer knows nothing of HTTP.
 * - not_found: no blob under this id (or an id that cannot be one);
 * - over_limit: the content grew past the `maxBytes` the caller allowed (a quota);
 * - full: the disk or the object store has no room left.
 */
export type StorageErrorCode = "not_found" | "over_limit" | "full";

const STORAGE_ERROR = Symbol.for("coffre.StorageError");

export class StorageError extends Error {
  readonly [STORAGE_ERROR] = true;

  /** Recognised by its brand, like AppError: server.ts bundles its own copy of this module beside Next's. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[STORAGE_ERROR] === true;
  }

  constructor(
    readonly code: StorageErrorCode,
    message: string,
  ) {
    super(message);
  }
}
