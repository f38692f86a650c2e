/**
 * The receiving side of a streamed results upload: the parts after the experiment id, checked
 * for order, each file decoded, hashed and sized as it arrives and stored when it ends, the
 * fields kept for the end. Which blobs were stored is kept so that a failed upload removes them.
 */
import { createHash, type Hash } from "node:crypto";
import { ValidationError, newId } from "@petri/service-kit";
import { blobKeyFor } from "../blobs/index.js";
import { PayloadTooLargeError } from "../domain/payload-too-large.js";
import {
  Base64StreamDecoder,
  RESULT_LIMITS,
  SNIFF_BYTES,
  type StreamedContent,
} from "../domain/results/index.js";
import type { SubmitResultsDeps } from "./commit-results.js";

/** One message of an upload, in order: experiment, then per file `file` and its `base64` pieces, then `fields`. */
export type UploadPart =
  | { readonly kind: "experiment"; readonly experimentId: string }
  | { readonly kind: "file"; readonly field: string }
  | { readonly kind: "base64"; readonly text: string }
  | { readonly kind: "fields"; readonly json: string };

/** Every file the body can hold (raw data, photos, the notebook): more is not a submission. */
const MAX_FILES = RESULT_LIMITS.maxRawFiles + RESULT_LIMITS.maxPhotos + 1;
/** The body without its file contents: the non-file fields at their limits fit well within it. */
const MAX_FIELDS_JSON_BYTES = 8 * 1024 * 1024;

export function outOfOrder(message: string): ValidationError {
  return new ValidationError("the upload is malformed", [{ field: "", code: "invalid_value", message }]);
}

/** A file being received: decoded, hashed and sized piece by piece, its bytes kept until it ends. */
class IncomingFile {
  readonly decoder = new Base64StreamDecoder();
  readonly #hash: Hash = createHash("sha256");
  readonly #parts: Uint8Array[] = [];

  constructor(
    readonly field: string,
    readonly key: string,
    readonly fileId: string,
  ) {}

  push(text: string): void {
    this.#keep(this.decoder.push(text));
  }

  /** Ends the file: its bytes (empty when its base64 was invalid) and what decoding found. */
  end(): { parts: readonly Uint8Array[]; content: StreamedContent } {
    this.#keep(this.decoder.end());
    const problem = this.decoder.problem;
    const first: Uint8Array[] = [];
    for (let i = 0, size = 0; i < this.#parts.length && size < SNIFF_BYTES; i += 1) {
      first.push(this.#parts[i]!);
      size += this.#parts[i]!.byteLength;
    }
    const head = Buffer.concat(first).subarray(0, SNIFF_BYTES);
    return {
      parts: problem === undefined ? this.#parts : [],
      content: {
        decodedBytes: this.decoder.decodedBytes,
        ...(problem !== undefined ? { problem } : {}),
        sha256: this.#hash.digest("hex"),
        head: new Uint8Array(head),
      },
    };
  }

  #keep(bytes: Uint8Array): void {
    // Past a problem nothing is decoded; what came before is dropped at the end.
    if (bytes.byteLength === 0 || this.decoder.problem !== undefined) return;
    this.#hash.update(bytes);
    this.#parts.push(bytes);
  }
}

/** The files and fields of one upload, as they arrive. */
export class UploadReceiver {
  /** What decoding found of each file, by its field. */
  readonly contents = new Map<string, StreamedContent>();
  /** The stored blob of each file with valid content, by its field. */
  readonly stored = new Map<string, { key: string; fileId: string }>();
  /** Every blob stored so far (removed if the upload fails). */
  readonly allKeys: string[] = [];
  private open: IncomingFile | undefined;
  private fieldsJson: string | undefined;

  constructor(
    private readonly deps: SubmitResultsDeps,
    private readonly experimentId: string,
    private readonly now: Date,
  ) {}

  /** Takes the next part; throws on a part out of order, a file too large or a field sent twice. */
  async accept(part: UploadPart): Promise<void> {
    if (this.fieldsJson !== undefined) throw outOfOrder("nothing may follow the fields of an upload");
    if (part.kind === "experiment") throw outOfOrder("an upload names its experiment once");
    if (part.kind === "base64") {
      if (!this.open) throw outOfOrder("a file piece must follow the file it belongs to");
      this.open.push(part.text);
      this.checkSizes();
      return;
    }
    const ended = this.open;
    this.open = undefined;
    if (ended) await this.close(ended);
    if (part.kind === "fields") {
      if (Buffer.byteLength(part.json, "utf8") > MAX_FIELDS_JSON_BYTES) {
        throw new PayloadTooLargeError(
          `the fields of the submission (without files) are larger than ${MAX_FIELDS_JSON_BYTES} bytes`,
          { limit: "body", max_bytes: MAX_FIELDS_JSON_BYTES },
        );
      }
      this.fieldsJson = part.json;
      return;
    }
    this.startFile(part.field);
  }

  /** The fields of the submission, once every part arrived. */
  fields(): string {
    if (this.fieldsJson === undefined)
      throw outOfOrder("the upload ended before the fields of the submission");
    return this.fieldsJson;
  }

  private startFile(field: string): void {
    if (this.contents.has(field)) {
      throw new ValidationError("the results are invalid", [
        { field, code: "invalid_value", message: `${field} appears twice in the body` },
      ]);
    }
    if (this.contents.size >= MAX_FILES) {
      throw new ValidationError("the results are invalid", [
        {
          field,
          code: "invalid_value",
          message: `a submission holds at most ${MAX_FILES} files (raw data, photos and the lab notebook)`,
        },
      ]);
    }
    const fileId = newId("fil", this.now);
    this.open = new IncomingFile(field, blobKeyFor(this.experimentId, fileId), fileId);
  }

  private async close(file: IncomingFile): Promise<void> {
    const { parts: bytes, content } = file.end();
    this.contents.set(file.field, content);
    this.checkSizes();
    if (content.problem !== undefined) return;
    this.allKeys.push(file.key);
    // The type is recognised later from the whole submission; the file's row carries it.
    await this.deps.blobs.put(file.key, bytes, "application/octet-stream");
    this.stored.set(file.field, { key: file.key, fileId: file.fileId });
  }

  /** 413 as soon as one file, or all of them together, pass their limit. */
  private checkSizes(): void {
    const open = this.open;
    const facts = [...this.contents.entries(), ...(open ? [[open.field, open.decoder] as const] : [])];
    let total = 0;
    for (const [field, { decodedBytes }] of facts) {
      if (decodedBytes > RESULT_LIMITS.maxFileBytes) {
        throw new PayloadTooLargeError(
          `${field} is at least ${decodedBytes} bytes once decoded; a file may have at most ${RESULT_LIMITS.maxFileBytes} bytes`,
          { limit: "file", max_bytes: RESULT_LIMITS.maxFileBytes, size_bytes: decodedBytes, field },
        );
      }
      total += decodedBytes;
    }
    if (total > RESULT_LIMITS.maxSubmissionBytes) {
      throw new PayloadTooLargeError(
        `The files of this submission are at least ${total} bytes once decoded; a submission may have at most ${RESULT_LIMITS.maxSubmissionBytes} bytes of files`,
        { limit: "submission", max_bytes: RESULT_LIMITS.maxSubmissionBytes, size_bytes: total },
      );
    }
  }
}
