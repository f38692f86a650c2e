/**
 * The blob store adapters against real backends: FsBlobStore in a temporary directory, and
 * S3BlobStore through @aws-sdk/client-s3 against a fake S3 HTTP server on 127.0.0.1
 * (test/support/fake-s3.ts): round trips, missing keys, refused keys, concurrent writers, SigV4
 * signing without the secret on the wire, errors and timeouts without the secret in them.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";

import { newId } from "@petri/service-kit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import {
  BlobKeyError,
  blobKeyFor,
  BlobStoreError,
  FsBlobStore,
  S3BlobStore,
  type S3BlobStoreOptions,
} from "../src/blobs/index.js";
import { FakeS3 } from "./support/fake-s3.js";

const bytesOf = (text: string) => new Uint8Array(Buffer.from(text));
const textOf = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString("utf8"));
const newKey = () => blobKeyFor(newId("exp"), newId("fil"));

const TRAVERSAL_KEYS = [
  "../outside",
  "results/../../outside",
  "/etc/passwd",
  "results/./x",
  ".tmp/x",
  "a\\..\\b",
];

describe("FsBlobStore", () => {
  let root: string;
  let store: FsBlobStore;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), "petri-blobs-"));
    store = new FsBlobStore(path.join(root, "store"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("stores, reads, replaces and deletes a blob", async () => {
    const key = newKey();
    await store.put(key, bytesOf("first"), "text/plain");
    expect(textOf(await store.get(key))).toBe("first");
    await store.put(key, bytesOf("second, longer"), "text/plain");
    expect(textOf(await store.get(key))).toBe("second, longer");
    const onDisk = path.join(root, "store", ...key.split("/"));
    expect(await readFile(onDisk, "utf8")).toBe("second, longer");
    expect((await stat(onDisk)).mode & 0o777).toBe(0o600);
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
  });

  it("keeps binary content byte for byte, including empty blobs", async () => {
    const key = newKey();
    const bytes = new Uint8Array(randomBytes(256 * 1024));
    await store.put(key, bytes, "application/octet-stream");
    expect(Buffer.from((await store.get(key))!).equals(Buffer.from(bytes))).toBe(true);
    await store.put(key, new Uint8Array(0), "application/octet-stream");
    expect(await store.get(key)).toEqual(new Uint8Array(0));
  });

  it("reads a missing key, or a key that is only a prefix of others, as null and deletes it quietly", async () => {
    const key = newKey();
    expect(await store.get(key)).toBeNull();
    await store.delete(key);
    await store.put(key, bytesOf("x"), "text/plain");
    const prefix = key.split("/").slice(0, 2).join("/");
    expect(await store.get(prefix)).toBeNull();
    await store.delete(prefix);
    expect(textOf(await store.get(key))).toBe("x");
  });

  it.each(TRAVERSAL_KEYS)(
    "refuses the key %j for every operation and writes nothing outside",
    async (key) => {
      await expect(store.put(key, bytesOf("evil"), "text/plain")).rejects.toBeInstanceOf(BlobKeyError);
      await expect(store.get(key)).rejects.toBeInstanceOf(BlobKeyError);
      await expect(store.delete(key)).rejects.toBeInstanceOf(BlobKeyError);
      expect(await readdir(root)).toEqual([]);
    },
  );

  it("lets concurrent writers of one key each land a whole file, and readers never see a torn one", async () => {
    const key = newKey();
    const versions = Array.from({ length: 12 }, (_, i) => Buffer.alloc(512 * 1024, 65 + i));
    await store.put(key, versions[0]!, "application/octet-stream");
    const seen: (Uint8Array | null)[] = [];
    await Promise.all([
      ...versions.map((bytes) => store.put(key, bytes, "application/octet-stream")),
      ...Array.from({ length: 30 }, async () => seen.push(await store.get(key))),
    ]);
    const whole = (bytes: Uint8Array | null) =>
      versions.some((v) => bytes !== null && v.equals(Buffer.from(bytes)));
    expect(seen.every(whole)).toBe(true);
    expect(whole(await store.get(key))).toBe(true);
    // Every temporary file was renamed into place: nothing is left behind.
    expect(await readdir(path.join(root, "store", ".tmp"))).toEqual([]);
  });

  it("reports an I/O failure as a BlobStoreError and cleans up its temporary file", async () => {
    const key = newKey();
    // A plain file where the experiment's directory should be.
    const [, experimentId] = key.split("/");
    await store.put(blobKeyFor(experimentId!, newId("fil")), bytesOf("ok"), "text/plain");
    await rm(path.join(root, "store", "results", experimentId!), { recursive: true });
    await writeFile(path.join(root, "store", "results", experimentId!), "not a directory");
    const failure = await store.put(key, bytesOf("x"), "text/plain").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BlobStoreError);
    expect((failure as BlobStoreError).operation).toBe("put");
    expect(await readdir(path.join(root, "store", ".tmp"))).toEqual([]);
  });
});

describe("S3BlobStore against a fake S3", () => {
  const SECRET = `secret-${randomBytes(16).toString("hex")}`;
  const ACCESS_KEY_ID = "AKIDPETRITEST0000001";
  let s3: FakeS3;
  const stores: S3BlobStore[] = [];

  const open = (options: Partial<S3BlobStoreOptions> = {}) => {
    const store = new S3BlobStore({
      endpoint: s3.endpoint,
      region: "us-east-1",
      bucket: "petri-test",
      accessKeyId: ACCESS_KEY_ID,
      secretAccessKey: SECRET,
      forcePathStyle: true,
      requestTimeoutMs: 5_000,
      ...options,
    });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    s3 = await FakeS3.start(["petri-test"]);
  });
  afterEach(() => {
    s3.reset();
  });
  afterAll(async () => {
    for (const store of stores) store.destroy();
    await s3?.close();
  });

  it("puts, gets and deletes objects path-style with their content type", async () => {
    const store = open();
    const key = newKey();
    const bytes = new Uint8Array(randomBytes(300 * 1024));
    await store.put(key, bytes, "text/csv");
    const stored = s3.object("petri-test", key);
    expect(stored?.contentType).toBe("text/csv");
    expect(stored?.bytes.equals(Buffer.from(bytes))).toBe(true);
    expect(Buffer.from((await store.get(key))!).equals(Buffer.from(bytes))).toBe(true);
    await store.delete(key);
    expect(s3.object("petri-test", key)).toBeUndefined();
    expect(await store.get(key)).toBeNull();
    const mine = s3.requests.filter((r) => r.key === key);
    expect(mine.map((r) => r.method)).toEqual(["PUT", "GET", "DELETE", "GET"]);
    expect(mine.every((r) => r.url.startsWith(`/petri-test/${key}`))).toBe(true);
  });

  it("reads a missing key as null and deletes a missing key without error", async () => {
    const store = open();
    const key = newKey();
    expect(await store.get(key)).toBeNull();
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it("signs every request with SigV4 and never sends the secret", async () => {
    const store = open();
    const key = newKey();
    await store.put(key, bytesOf("signed"), "text/plain");
    await store.get(key);
    await store.delete(key);
    const mine = s3.requests.filter((r) => r.key === key);
    expect(mine).toHaveLength(3);
    for (const request of mine) {
      expect(request.headers.authorization).toMatch(
        new RegExp(
          `^AWS4-HMAC-SHA256 Credential=${ACCESS_KEY_ID}/\\d{8}/us-east-1/s3/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$`,
        ),
      );
      expect(request.headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
      expect(JSON.stringify(request)).not.toContain(SECRET);
    }
  });

  it("refuses traversal keys before any request", async () => {
    const store = open();
    const before = s3.requests.length;
    for (const key of TRAVERSAL_KEYS) {
      await expect(store.put(key, bytesOf("x"), "text/plain")).rejects.toBeInstanceOf(BlobKeyError);
      await expect(store.get(key)).rejects.toBeInstanceOf(BlobKeyError);
    }
    expect(s3.requests.length).toBe(before);
  });

  it("turns server errors into BlobStoreErrors that name the status but not the secret", async () => {
    const store = open();
    s3.failNext(500, 10);
    const failure = await store.put(newKey(), bytesOf("x"), "text/plain").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BlobStoreError);
    expect((failure as Error).message).toMatch(/S3 put results\/exp_\w+\/fil_\w+ failed: .*HTTP 500/);
    expect((failure as Error).message).not.toContain(SECRET);
    expect(JSON.stringify(failure)).not.toContain(SECRET);
  });

  it("treats a missing bucket as an error, not as a missing blob", async () => {
    const store = open({ bucket: "no-such-bucket" });
    const failure = await store.get(newKey()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BlobStoreError);
    expect((failure as Error).message).toMatch(/NoSuchBucket/);
  });

  it("gives up on a server that never answers within the request timeout", async () => {
    const store = open({ requestTimeoutMs: 300 });
    s3.hang(true);
    const failure = await store.get(newKey()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BlobStoreError);
    expect((failure as Error).message).toMatch(/timed out after 300 ms/);
  });

  it("refuses to read an object larger than its cap", async () => {
    const store = open({ maxObjectBytes: 1024 });
    const key = newKey();
    s3.putObject("petri-test", key, Buffer.alloc(4096, 1));
    const failure = await store.get(key).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BlobStoreError);
    expect((failure as Error).message).toMatch(/more than 1024/);
  });

  it("refuses to return bytes whose checksum does not match what S3 stored", async () => {
    const store = open();
    const key = newKey();
    const crcOfOtherBytes = Buffer.alloc(4);
    crcOfOtherBytes.writeUInt32BE(crc32(Buffer.from("other bytes")));
    s3.putObject("petri-test", key, Buffer.from("stored bytes"), {
      crc32: crcOfOtherBytes.toString("base64"),
    });
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobStoreError);
  });

  it("lets concurrent writers of one key each store a whole object", async () => {
    const store = open();
    const key = newKey();
    const versions = Array.from({ length: 8 }, (_, i) => Buffer.alloc(64 * 1024, 97 + i));
    await Promise.all(versions.map((bytes) => store.put(key, bytes, "application/octet-stream")));
    const final = Buffer.from((await store.get(key))!);
    expect(versions.some((v) => v.equals(final))).toBe(true);
  });
});
