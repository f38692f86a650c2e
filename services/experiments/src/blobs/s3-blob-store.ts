/**
 * Blob store on S3 or an S3-compatible service (MinIO, Ceph, R2…), through @aws-sdk/client-s3:
 * PutObject, GetObject, DeleteObject. A missing key (NoSuchKey / 404) reads as null.
 *
 * Every call is bounded: per attempt by the HTTP handler's connection and request timeouts, and
 * as a whole (retries included) by an abort signal of `requestTimeoutMs`. Reads are capped at
 * `maxObjectBytes`. The credentials live only inside the private client: they are not fields of
 * this object, and errors are built from the S3 error's name, status and request id with any
 * occurrence of the secret removed.
 */
import type * as S3SdkModule from "@aws-sdk/client-s3";
import type { S3Client, S3ClientConfig } from "@aws-sdk/client-s3";

import { assertBlobKey, BlobStoreError, type BlobStore } from "./blob-store.js";

export interface S3BlobStoreOptions {
  /** For S3-compatible services, e.g. "http://127.0.0.1:9000"; omit for AWS. */
  readonly endpoint?: string;
  readonly region: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), which most S3-compatible services need. */
  readonly forcePathStyle?: boolean;
  /** Upper bound of each operation, retries included (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** Largest object a get accepts (default 64 MiB); result files are far smaller. */
  readonly maxObjectBytes?: number;
}

export const DEFAULT_S3_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_S3_MAX_OBJECT_BYTES = 64 * 1024 * 1024;
const MAX_CONNECT_TIMEOUT_MS = 5_000;
const MAX_ATTEMPTS = 3;

type S3Sdk = typeof S3SdkModule;
// The SDK takes about 0.2 s and tens of MB to load: loaded on the first call, so a deployment on
// the file-system store (standalone's default) never pays for it.
let sdk: Promise<S3Sdk> | undefined;
const loadSdk = (): Promise<S3Sdk> => (sdk ??= import("@aws-sdk/client-s3"));

interface S3ErrorShape {
  name?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: number; requestId?: string };
}

function positive(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new RangeError(`${what} must be a positive whole number`);
  return value;
}

export class S3BlobStore implements BlobStore {
  readonly kind = "s3" as const;
  readonly #clientConfig: S3ClientConfig;
  #client: Promise<{ client: S3Client; commands: S3Sdk }> | undefined;
  readonly #bucket: string;
  readonly #timeoutMs: number;
  readonly #maxObjectBytes: number;
  readonly #redact: (text: string) => string;

  constructor(options: S3BlobStoreOptions) {
    if (!options.region) throw new TypeError("S3BlobStore needs a region");
    if (!options.bucket) throw new TypeError("S3BlobStore needs a bucket");
    if (!options.accessKeyId || !options.secretAccessKey)
      throw new TypeError("S3BlobStore needs credentials");
    this.#bucket = options.bucket;
    this.#timeoutMs = positive(options.requestTimeoutMs, DEFAULT_S3_REQUEST_TIMEOUT_MS, "requestTimeoutMs");
    this.#maxObjectBytes = positive(options.maxObjectBytes, DEFAULT_S3_MAX_OBJECT_BYTES, "maxObjectBytes");
    const secret = options.secretAccessKey;
    this.#redact = (text) => text.split(secret).join("[redacted]");
    this.#clientConfig = {
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: secret },
      maxAttempts: MAX_ATTEMPTS,
      requestHandler: {
        connectionTimeout: Math.min(this.#timeoutMs, MAX_CONNECT_TIMEOUT_MS),
        requestTimeout: this.#timeoutMs,
        throwOnRequestTimeout: true,
      },
    };
  }

  /** The client, created on the first call (with the SDK). */
  #connect(): Promise<{ client: S3Client; commands: S3Sdk }> {
    this.#client ??= loadSdk().then((commands) => ({
      client: new commands.S3Client(this.#clientConfig),
      commands,
    }));
    return this.#client;
  }

  get bucket(): string {
    return this.#bucket;
  }

  async put(key: string, parts: Uint8Array | readonly Uint8Array[], contentType: string): Promise<void> {
    assertBlobKey(key);
    // One buffer: the SDK retries a put (maxAttempts), which needs a body it can send again.
    const bytes = parts instanceof Uint8Array ? parts : Buffer.concat(parts);
    try {
      const { client, commands } = await this.#connect();
      await client.send(
        new commands.PutObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.byteLength,
        }),
        { abortSignal: AbortSignal.timeout(this.#timeoutMs) },
      );
    } catch (error) {
      throw this.#failure("put", key, error);
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    assertBlobKey(key);
    const signal = AbortSignal.timeout(this.#timeoutMs);
    try {
      const { client, commands } = await this.#connect();
      const response = await client.send(new commands.GetObjectCommand({ Bucket: this.#bucket, Key: key }), {
        abortSignal: signal,
      });
      if (response.ContentLength !== undefined && response.ContentLength > this.#maxObjectBytes) {
        (response.Body as { destroy?: () => void } | undefined)?.destroy?.();
        throw new BlobStoreError(
          `S3 get ${key} refused: the object has ${response.ContentLength} bytes, more than ${this.#maxObjectBytes}`,
          "get",
          key,
        );
      }
      if (!response.Body) return new Uint8Array(0);
      return await this.#readCapped(key, response.Body as unknown as AsyncIterable<Uint8Array>);
    } catch (error) {
      if (error instanceof BlobStoreError) throw error;
      if (isMissing(error)) return null;
      throw this.#failure("get", key, error);
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    try {
      const { client, commands } = await this.#connect();
      await client.send(new commands.DeleteObjectCommand({ Bucket: this.#bucket, Key: key }), {
        abortSignal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      // S3 answers 204 for a missing key; some compatible services answer 404.
      if (isMissing(error)) return;
      throw this.#failure("delete", key, error);
    }
  }

  /** Closes the client's idle connections (for shutdown and tests). */
  destroy(): void {
    void this.#client?.then(
      ({ client }) => client.destroy(),
      () => undefined,
    );
  }

  async #readCapped(key: string, body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for await (const chunk of body) {
      total += chunk.byteLength;
      if (total > this.#maxObjectBytes) {
        throw new BlobStoreError(
          `S3 get ${key} refused: the object is larger than ${this.#maxObjectBytes} bytes`,
          "get",
          key,
        );
      }
      chunks.push(chunk);
    }
    const buffer = Buffer.concat(chunks, total);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }

  #failure(operation: "put" | "get" | "delete", key: string, error: unknown): BlobStoreError {
    const shape = (typeof error === "object" && error !== null ? error : {}) as S3ErrorShape;
    const name = typeof shape.name === "string" ? shape.name : "Error";
    if (name === "AbortError" || name === "TimeoutError") {
      return new BlobStoreError(
        `S3 ${operation} ${key} timed out after ${this.#timeoutMs} ms`,
        operation,
        key,
      );
    }
    const status = shape.$metadata?.httpStatusCode;
    const requestId = shape.$metadata?.requestId;
    const message =
      typeof shape.message === "string" ? shape.message.slice(0, 300) : String(error).slice(0, 300);
    const facts = [status ? `HTTP ${status}` : "", requestId ? `request id ${requestId}` : ""].filter(
      Boolean,
    );
    return new BlobStoreError(
      this.#redact(
        `S3 ${operation} ${key} failed: ${name}${facts.length ? ` (${facts.join(", ")})` : ""}: ${message}`,
      ),
      operation,
      key,
    );
  }
}

function isMissing(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const shape = error as S3ErrorShape;
  if (shape.name === "NoSuchKey" || shape.name === "NotFound") return true;
  // A missing bucket is a misconfiguration, never an absent blob.
  return shape.$metadata?.httpStatusCode === 404 && shape.name !== "NoSuchBucket";
}
