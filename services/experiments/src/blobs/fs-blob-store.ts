/**
 * Blob store on the local file system: one file per key under a root directory.
 *
 * A put writes a temporary file in `<root>/.tmp` (same file system, and a name no key can take,
 * since key segments never start with "."), fsyncs it, renames it over the target and fsyncs the
 * directory: a reader sees the old bytes or the new ones, never a torn file, and a crash leaves at
 * worst an orphan temporary file. Concurrent puts of one key each rename a complete file; the last
 * one wins. The content type is not kept: callers store it with the file's metadata.
 */
import { randomUUID } from "node:crypto";
import { mkdir, open, readFile, rename, rm, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";

import { assertBlobKey, BlobKeyError, BlobStoreError, type BlobStore } from "./blob-store.js";

const TEMP_DIR = ".tmp";

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

/** A key that names a missing file, or a directory (a prefix of other keys), holds no blob. */
const ABSENT = new Set(["ENOENT", "ENOTDIR", "EISDIR"]);

/** fsync of a directory makes a rename durable on Linux; some platforms refuse it, harmlessly. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch (error) {
    if (!["EISDIR", "EINVAL", "EPERM", "EBADF", "EACCES"].includes(errorCode(error) ?? "")) throw error;
  } finally {
    await handle?.close();
  }
}

export class FsBlobStore implements BlobStore {
  readonly kind = "fs" as const;
  readonly #root: string;

  constructor(rootDir: string) {
    if (typeof rootDir !== "string" || rootDir.trim() === "")
      throw new TypeError("FsBlobStore needs a directory");
    this.#root = path.resolve(rootDir);
  }

  get rootDir(): string {
    return this.#root;
  }

  #pathOf(key: string): string {
    assertBlobKey(key);
    const full = path.join(this.#root, ...key.split("/"));
    // Belt and braces: the key rules already forbid anything that could leave the root.
    if (!full.startsWith(this.#root + path.sep)) throw new BlobKeyError(`blob key leaves the store: ${key}`);
    return full;
  }

  async put(key: string, bytes: Uint8Array | readonly Uint8Array[], _contentType: string): Promise<void> {
    const target = this.#pathOf(key);
    const tempDir = path.join(this.#root, TEMP_DIR);
    const temp = path.join(tempDir, `${randomUUID()}.part`);
    let handle: FileHandle | undefined;
    try {
      await mkdir(path.dirname(target), { recursive: true });
      await mkdir(tempDir, { recursive: true });
      handle = await open(temp, "wx", 0o600);
      // writeFile on a handle writes at its current position, so the parts follow one another.
      for (const part of bytes instanceof Uint8Array ? [bytes] : bytes) await handle.writeFile(part);
      await handle.sync();
      await handle.close();
      handle = undefined;
      await rename(temp, target);
      await syncDirectory(path.dirname(target));
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await rm(temp, { force: true }).catch(() => undefined);
      throw new BlobStoreError(
        `could not store blob ${key}: ${errorCode(error) ?? String(error)}`,
        "put",
        key,
        {
          cause: error,
        },
      );
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    const file = this.#pathOf(key);
    try {
      const buffer = await readFile(file);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch (error) {
      if (ABSENT.has(errorCode(error) ?? "")) return null;
      throw new BlobStoreError(
        `could not read blob ${key}: ${errorCode(error) ?? String(error)}`,
        "get",
        key,
        {
          cause: error,
        },
      );
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.#pathOf(key);
    try {
      await unlink(file);
    } catch (error) {
      const code = errorCode(error) ?? "";
      if (ABSENT.has(code)) return;
      throw new BlobStoreError(`could not delete blob ${key}: ${code || String(error)}`, "delete", key, {
        cause: error,
      });
    }
  }
}
