/**
 * A small S3 stand-in for tests, on 127.0.0.1: path-style PUT, GET and DELETE of
 * /<bucket>/<key>, answering like S3 (404 NoSuchKey / NoSuchBucket XML). It keeps objects in
 * memory and records every request (method, path, headers, body size) so tests can check what the
 * client sent, e.g. the SigV4 Authorization header. It does not verify signatures.
 *
 * Integrity as S3 checks it: a PUT whose body does not match its signed payload hash
 * (x-amz-content-sha256) or its CRC32 checksum (x-amz-checksum-crc32) is refused with 400, and a
 * GET returns the stored CRC32 so the SDK verifies what it reads.
 *
 * Faults for tests: `failNext(status, times)` answers the next requests with an S3 error status;
 * `hang(true)` accepts requests and never answers (to exercise client timeouts); `reset()` ends both.
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { crc32 } from "node:zlib";

export interface RecordedRequest {
  readonly method: string;
  /** The raw request target, e.g. "/bucket/results/exp_1/fil_2?x-id=PutObject". */
  readonly url: string;
  readonly bucket: string;
  readonly key: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyBytes: number;
}

export interface StoredObject {
  readonly bytes: Buffer;
  readonly contentType: string;
  /** Base64 of the big-endian CRC32, as in x-amz-checksum-crc32. */
  readonly crc32: string;
}

function crc32Base64(bytes: Buffer): string {
  const value = Buffer.alloc(4);
  value.writeUInt32BE(crc32(bytes));
  return value.toString("base64");
}

function xmlError(code: string, message: string, resource: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>` +
    `<Resource>${resource}</Resource><RequestId>${randomUUID()}</RequestId></Error>`
  );
}

export class FakeS3 {
  readonly requests: RecordedRequest[] = [];
  readonly #objects = new Map<string, StoredObject>();
  readonly #buckets: Set<string>;
  readonly #server: Server;
  #failures: { status: number; remaining: number } | undefined;
  #hanging = false;
  readonly #held = new Set<ServerResponse>();

  private constructor(buckets: readonly string[]) {
    this.#buckets = new Set(buckets);
    this.#server = createServer((req, res) => {
      void this.#handle(req, res);
    });
  }

  /** Starts a fake S3 on 127.0.0.1 with these buckets. */
  static async start(buckets: readonly string[] = ["petri-test"]): Promise<FakeS3> {
    const fake = new FakeS3(buckets);
    await new Promise<void>((resolve) => fake.#server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get endpoint(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  object(bucket: string, key: string): StoredObject | undefined {
    return this.#objects.get(`${bucket}/${key}`);
  }

  /** Seeds an object; a `crc32` that does not match `bytes` simulates corruption at rest. */
  putObject(
    bucket: string,
    key: string,
    bytes: Buffer,
    options: { contentType?: string; crc32?: string } = {},
  ): void {
    this.#objects.set(`${bucket}/${key}`, {
      bytes,
      contentType: options.contentType ?? "application/octet-stream",
      crc32: options.crc32 ?? crc32Base64(bytes),
    });
  }

  failNext(status: number, times = 1): void {
    this.#failures = { status, remaining: times };
  }

  hang(on: boolean): void {
    this.#hanging = on;
  }

  reset(): void {
    this.#failures = undefined;
    this.#hanging = false;
  }

  async close(): Promise<void> {
    for (const res of this.#held) res.destroy();
    this.#held.clear();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.#server.close((error) => (error ? reject(error) : resolve())),
    );
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const target = new URL(req.url ?? "/", "http://fake-s3");
    const [bucket = "", ...keyParts] = target.pathname.slice(1).split("/");
    const key = keyParts.map((part) => decodeURIComponent(part)).join("/");
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    this.requests.push({
      method: req.method ?? "",
      url: req.url ?? "",
      bucket,
      key,
      headers,
      bodyBytes: body.length,
    });

    if (this.#hanging) {
      this.#held.add(res);
      return;
    }
    const reply = (status: number, payload?: string | Buffer, type = "application/xml") => {
      res.statusCode = status;
      res.setHeader("x-amz-request-id", randomUUID());
      if (payload !== undefined) {
        res.setHeader("content-type", type);
        res.setHeader("content-length", Buffer.byteLength(payload));
      }
      res.end(payload);
    };
    if (this.#failures && this.#failures.remaining > 0) {
      this.#failures.remaining -= 1;
      reply(
        this.#failures.status,
        xmlError("InternalError", "We encountered an internal error.", req.url ?? ""),
      );
      return;
    }
    if (!this.#buckets.has(bucket)) {
      reply(404, xmlError("NoSuchBucket", "The specified bucket does not exist", `/${bucket}`));
      return;
    }
    const id = `${bucket}/${key}`;
    switch (req.method) {
      case "PUT": {
        const payloadHash = headers["x-amz-content-sha256"];
        if (payloadHash !== createHash("sha256").update(body).digest("hex")) {
          reply(
            400,
            xmlError(
              "XAmzContentSHA256Mismatch",
              "The provided 'x-amz-content-sha256' header does not match what was computed.",
              `/${id}`,
            ),
          );
          return;
        }
        const checksum = crc32Base64(body);
        if (headers["x-amz-checksum-crc32"] !== undefined && headers["x-amz-checksum-crc32"] !== checksum) {
          reply(
            400,
            xmlError("BadDigest", "The CRC32 you specified did not match the calculated checksum.", `/${id}`),
          );
          return;
        }
        this.#objects.set(id, {
          bytes: body,
          contentType: headers["content-type"] ?? "binary/octet-stream",
          crc32: checksum,
        });
        res.setHeader("etag", `"${randomUUID()}"`);
        reply(200);
        return;
      }
      case "GET": {
        const found = this.#objects.get(id);
        if (!found) {
          reply(404, xmlError("NoSuchKey", "The specified key does not exist.", `/${id}`));
          return;
        }
        res.setHeader("x-amz-checksum-crc32", found.crc32);
        reply(200, found.bytes, found.contentType);
        return;
      }
      case "DELETE":
        this.#objects.delete(id);
        reply(204);
        return;
      default:
        reply(405, xmlError("MethodNotAllowed", "The specified method is not allowed", `/${id}`));
    }
  }
}
