import "server-only";
import type { Readable } from "node:stream";
import { getBlobStore as storageBlobStore, type BlobStore } from "@/lib/storage";
import { getArchiveStore as storageArchiveStore } from "@/lib/storage/archive-store";
import type { ByteRange, StoredBlob } from "@/lib/storage/blob-store";
import { storageError as diskError } from "@/lib/storage/local-store";
import { fromStorageError } from "../errors";

/**
 * The blob stores as services see them: the same stores (lib/storage), whose refusals
 * (StorageError) come out as the contract's errors (AppError), so every service, stream handler
 * and catch that knows AppError keeps working without knowing the storage layer's type.
 */
export function getBlobStore(): BlobStore {
  return mapped(storageBlobStore());
}

/** The cold tier (archives), with the same mapping. */
export function getArchiveStore(): BlobStore {
  return mapped(storageArchiveStore());
}

/** A failed write of work files beside the store (chunks): a full disk is the contract's 507, other failures stay errors. */
export function storageError(error: unknown): unknown {
  return fromStorageError(diskError(error));
}

const wrappers = new WeakMap<BlobStore, BlobStore>();

function mapped(store: BlobStore): BlobStore {
  let wrapper = wrappers.get(store);
  if (!wrapper) wrappers.set(store, (wrapper = new ContractErrors(store)));
  return wrapper;
}

const rethrow = (error: unknown): never => {
  throw fromStorageError(error);
};

function sync<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    return rethrow(error);
  }
}

class ContractErrors implements BlobStore {
  readonly abortAbandonedWrites?: (before: Date) => Promise<number>;

  constructor(private readonly store: BlobStore) {
    const abort = store.abortAbandonedWrites;
    if (abort) this.abortAbandonedWrites = (before) => abort.call(store, before).catch(rethrow);
  }

  get tempDir() {
    return this.store.tempDir;
  }
  put(source: Readable | AsyncIterable<Uint8Array>, options?: Parameters<BlobStore["put"]>[1]): Promise<StoredBlob> {
    return this.store.put(source, options).catch(rethrow);
  }
  read(id: string, range?: ByteRange): Promise<Readable> {
    return this.store.read(id, range).catch(rethrow);
  }
  size(id: string) {
    return this.store.size(id).catch(rethrow);
  }
  stat(id: string) {
    return this.store.stat(id).catch(rethrow);
  }
  delete(id: string) {
    return this.store.delete(id).catch(rethrow);
  }
  localPath(id: string) {
    return sync(() => this.store.localPath(id));
  }
  relativePath(id: string) {
    return sync(() => this.store.relativePath(id));
  }
  adoptFile(path: string, known?: { md5?: string; size?: number }) {
    return this.store.adoptFile(path, known).catch(rethrow);
  }
  list() {
    return this.store.list();
  }
  freeBytes() {
    return this.store.freeBytes().catch(rethrow);
  }
  ping() {
    return this.store.ping().catch(rethrow);
  }
}
