/**
 * Blob store configuration from the environment (parse it with `loadConfig` of
 * @petri/service-kit, which reports every bad variable at once and never echoes a secret):
 *
 *   PETRI_BLOB_STORE            fs (default) or s3
 *   PETRI_BLOB_DIR              fs: the root directory (default $PETRI_DATA_DIR/blobs, else .petri/blobs)
 *   PETRI_S3_ENDPOINT           s3: http(s) URL of an S3-compatible service; unset for AWS
 *   PETRI_S3_REGION             s3: required
 *   PETRI_S3_BUCKET             s3: required
 *   PETRI_S3_ACCESS_KEY_ID      s3: required
 *   PETRI_S3_SECRET_ACCESS_KEY  s3: required
 *   PETRI_S3_FORCE_PATH_STYLE   s3: true/false (default true with an endpoint, false for AWS)
 *   PETRI_S3_REQUEST_TIMEOUT_MS s3: bound of each operation (default 30000)
 *
 * The fs store suits standalone mode and a single replica (or a volume every replica shares);
 * several replicas on their own disks need s3.
 */
import path from "node:path";

import { millisecondsSchema } from "@petri/service-kit";
import { z } from "zod";

import type { BlobStore } from "./blob-store.js";
import { FsBlobStore } from "./fs-blob-store.js";
import { DEFAULT_S3_REQUEST_TIMEOUT_MS, S3BlobStore } from "./s3-blob-store.js";

const TRUE = ["true", "1", "yes", "on"];
const FALSE = ["false", "0", "no", "off"];

const flagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => TRUE.includes(value) || FALSE.includes(value), "must be true or false")
  .transform((value) => TRUE.includes(value));

const endpointSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      return ["http:", "https:"].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, "must be a URL starting with http:// or https://");

// S3's bucket naming rules (3-63 characters of lower-case letters, digits, dots and hyphens).
const bucketSchema = z
  .string()
  .trim()
  .regex(
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
    "must be an S3 bucket name (3-63 lower-case letters, digits, . and -)",
  );

const nonEmpty = z.string().trim().min(1, "must not be empty");

/** The raw variables, for services that merge them into their own schema. */
export const blobStoreEnvShape = {
  PETRI_BLOB_STORE: z.enum(["fs", "s3"], { error: "must be fs or s3" }).default("fs"),
  PETRI_BLOB_DIR: nonEmpty.optional(),
  PETRI_DATA_DIR: nonEmpty.optional(),
  PETRI_S3_ENDPOINT: endpointSchema.optional(),
  PETRI_S3_REGION: nonEmpty.optional(),
  PETRI_S3_BUCKET: bucketSchema.optional(),
  PETRI_S3_ACCESS_KEY_ID: nonEmpty.optional(),
  // Not trimmed: a secret is used exactly as given.
  PETRI_S3_SECRET_ACCESS_KEY: z.string().min(1, "must not be empty").optional(),
  PETRI_S3_FORCE_PATH_STYLE: flagSchema.optional(),
  PETRI_S3_REQUEST_TIMEOUT_MS: millisecondsSchema.optional(),
};

const REQUIRED_FOR_S3 = [
  "PETRI_S3_REGION",
  "PETRI_S3_BUCKET",
  "PETRI_S3_ACCESS_KEY_ID",
  "PETRI_S3_SECRET_ACCESS_KEY",
] as const;

export interface FsBlobStoreConfig {
  readonly kind: "fs";
  readonly dir: string;
}

export interface S3BlobStoreConfig {
  readonly kind: "s3";
  readonly endpoint?: string;
  readonly region: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  /** Not enumerable: logging or serialising the configuration cannot leak it. */
  readonly secretAccessKey: string;
  readonly forcePathStyle: boolean;
  readonly requestTimeoutMs: number;
}

export type BlobStoreConfig = FsBlobStoreConfig | S3BlobStoreConfig;

type BlobStoreEnv = z.output<z.ZodObject<typeof blobStoreEnvShape>>;

function toConfig(env: BlobStoreEnv): BlobStoreConfig {
  if (env.PETRI_BLOB_STORE === "fs") {
    return { kind: "fs", dir: env.PETRI_BLOB_DIR ?? path.join(env.PETRI_DATA_DIR ?? ".petri", "blobs") };
  }
  const config = {
    kind: "s3" as const,
    ...(env.PETRI_S3_ENDPOINT ? { endpoint: env.PETRI_S3_ENDPOINT } : {}),
    region: env.PETRI_S3_REGION!,
    bucket: env.PETRI_S3_BUCKET!,
    accessKeyId: env.PETRI_S3_ACCESS_KEY_ID!,
    forcePathStyle: env.PETRI_S3_FORCE_PATH_STYLE ?? env.PETRI_S3_ENDPOINT !== undefined,
    requestTimeoutMs: env.PETRI_S3_REQUEST_TIMEOUT_MS ?? DEFAULT_S3_REQUEST_TIMEOUT_MS,
  };
  Object.defineProperty(config, "secretAccessKey", {
    value: env.PETRI_S3_SECRET_ACCESS_KEY!,
    enumerable: false,
  });
  return config as S3BlobStoreConfig;
}

export const blobStoreConfigSchema = z
  .object(blobStoreEnvShape)
  .superRefine((env, ctx) => {
    if (env.PETRI_BLOB_STORE !== "s3") return;
    for (const name of REQUIRED_FOR_S3) {
      if (env[name] === undefined) {
        ctx.addIssue({ code: "custom", path: [name], message: "is required when PETRI_BLOB_STORE is s3" });
      }
    }
  })
  .transform(toConfig);

export function createBlobStore(config: BlobStoreConfig): BlobStore {
  if (config.kind === "fs") return new FsBlobStore(config.dir);
  return new S3BlobStore({
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    region: config.region,
    bucket: config.bucket,
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    forcePathStyle: config.forcePathStyle,
    requestTimeoutMs: config.requestTimeoutMs,
  });
}

/** The configuration as it may be logged: no secret, only the first characters of the key id. */
export function describeBlobStoreConfig(config: BlobStoreConfig): Record<string, unknown> {
  if (config.kind === "fs") return { kind: "fs", dir: config.dir };
  return {
    kind: "s3",
    endpoint: config.endpoint ?? "(AWS)",
    region: config.region,
    bucket: config.bucket,
    accessKeyId: `${config.accessKeyId.slice(0, 4)}…`,
    forcePathStyle: config.forcePathStyle,
    requestTimeoutMs: config.requestTimeoutMs,
  };
}
