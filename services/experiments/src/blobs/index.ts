/**
 * Where result files live and how they are handed out: the BlobStore port with its file-system and
 * S3 adapters, their configuration from the environment, and short-lived signed download urls.
 */
export {
  assertBlobKey,
  BlobKeyError,
  blobKeyFor,
  BlobStoreError,
  MAX_BLOB_KEY_LENGTH,
  type BlobStore,
} from "./blob-store.js";
export { FsBlobStore } from "./fs-blob-store.js";
export {
  DEFAULT_S3_MAX_OBJECT_BYTES,
  DEFAULT_S3_REQUEST_TIMEOUT_MS,
  S3BlobStore,
  type S3BlobStoreOptions,
} from "./s3-blob-store.js";
export {
  blobStoreConfigSchema,
  blobStoreEnvShape,
  createBlobStore,
  describeBlobStoreConfig,
  type BlobStoreConfig,
  type FsBlobStoreConfig,
  type S3BlobStoreConfig,
} from "./config.js";
export {
  FILE_URL_KEY_BYTES,
  FILE_URL_TTL_SECONDS,
  MAX_FILE_URL_TTL_SECONDS,
  signFileUrl,
  verifyFileUrl,
  type FileUrlCheck,
} from "./signed-urls.js";
