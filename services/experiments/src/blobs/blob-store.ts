/**
 * The blob store port: where uploaded result files live, addressed by key. Two adapters: the
 * local file system (standalone mode, one replica or a shared volume) and S3 or an S3-compatible
 * store (cluster mode).
 *
 * Keys are "/"-separated segments of letters, digits, ".", "_" and "-", each starting with a
 * letter or digit: no "..", no absolute paths, no hidden names, the same on every backend.
 */
import { isId } from "@petri/service-kit";

export interface BlobStore {
  /**
   * Stores the bytes under `key`, replacing what was there; readers never see a partial object.
   * The bytes may come in parts (a streamed upload), stored one after the other, so that the
   * caller need not copy them into one buffer.
   */
  put(key: string, bytes: Uint8Array | readonly Uint8Array[], contentType: string): Promise<void>;
  /** The bytes under `key`, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  readonly kind: "fs" | "s3";
}

/** A key that is not a valid blob key, or an id that cannot make one: a programming error. */
export class BlobKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BlobKeyError";
  }
}

/** A backend failure (I/O error, S3 error or timeout). The message never carries credentials. */
export class BlobStoreError extends Error {
  constructor(
    message: string,
    readonly operation: "put" | "get" | "delete",
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "BlobStoreError";
  }
}

export const MAX_BLOB_KEY_LENGTH = 512;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Throws BlobKeyError unless `key` is a valid blob key. */
export function assertBlobKey(key: string): void {
  if (typeof key !== "string" || key.length === 0 || key.length > MAX_BLOB_KEY_LENGTH) {
    throw new BlobKeyError(`blob key must be 1 to ${MAX_BLOB_KEY_LENGTH} characters`);
  }
  for (const segment of key.split("/")) {
    if (!SEGMENT.test(segment) || segment.includes("..")) {
      throw new BlobKeyError(`invalid blob key ${JSON.stringify(key.slice(0, 100))}`);
    }
  }
}

/** The key of a result file: `results/<experiment id>/<file id>`. Both ids must be well formed. */
export function blobKeyFor(experimentId: string, fileId: string): string {
  if (!isId("exp", experimentId)) {
    throw new BlobKeyError(`not an experiment id: ${JSON.stringify(String(experimentId).slice(0, 100))}`);
  }
  if (!isId("fil", fileId))
    throw new BlobKeyError(`not a file id: ${JSON.stringify(String(fileId).slice(0, 100))}`);
  return `results/${experimentId}/${fileId}`;
}
