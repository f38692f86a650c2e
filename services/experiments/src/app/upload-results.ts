import { createHash, type Hash } from "node:crypto";

import { NotFoundError, type Principal, ValidationError, newId, parseSafeJson } from "@petri/service-kit";
import { blobKeyFor } from "../blobs/index.js";
import type { ExperimentRecord } from "../db/experiment-records.js";
import { findExperiment } from "../db/experiments.js";
import { assertAssignedOperator } from "../domain/authorization.js";
import { assertCan } from "../domain/lifecycle/transitions.js";
import { PayloadTooLargeError } from "../domain/payload-too-large.js";
import {
  Base64StreamDecoder,
  RESULT_LIMITS,
  SNIFF_BYTES,
  type StreamedContent,
  checkStreamedSubmission,
  toStoredResults,
} from "../domain/results/index.js";
import { type SubmitResultsDeps, commitResults, removeBlobs } from "./commit-results.js";

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

function outOfOrder(message: string): ValidationError {
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

/**
 * UploadResults (the gateway's submit): SubmitResults with the files streamed, so that no whole
 * body and no file beyond the one being received is held.
 *
 * 1. The first part names the experiment: 404 / 403 / 409 invalid_state before any file is read.
 * 2. Each file is decoded strictly as it arrives (domain/results Base64StreamDecoder), hashed, and
 *    sized: a file over 10 MiB or a total over 25 MiB is 413 at once. At its end its bytes go to
 *    the blob store under results/<experiment>/<file id> (invalid base64 stores nothing).
 * 3. The last part is the body without file contents: the rules of parseSubmission apply
 *    (checkStreamedSubmission), 413 / 422 with every field error as for SubmitResults.
 * 4. The same transaction as SubmitResults (./commit-results.ts) commits it.
 * On any failure, including the caller going away, the blobs already stored are deleted.
 */
export function makeUploadResults(deps: SubmitResultsDeps) {
  return async function uploadResults(
    principal: Principal,
    parts: AsyncIterable<UploadPart>,
  ): Promise<ExperimentRecord> {
    const iterator = parts[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done || first.value.kind !== "experiment")
      throw outOfOrder("an upload starts with the experiment id");
    const before = await findExperiment(deps.db, first.value.experimentId);
    if (!before) throw new NotFoundError("experiment", first.value.experimentId);
    assertAssignedOperator(principal, before);
    assertCan("submit_results", before.status);

    const now = deps.clock.now();
    const contents = new Map<string, StreamedContent>();
    const stored = new Map<string, { key: string; fileId: string }>();
    const allKeys: string[] = [];
    let open: IncomingFile | undefined;
    let fieldsJson: string | undefined;

    const checkSizes = () => {
      const facts = [...contents.entries(), ...(open ? [[open.field, open.decoder] as const] : [])];
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
    };

    const close = async (file: IncomingFile) => {
      const { parts: bytes, content } = file.end();
      contents.set(file.field, content);
      checkSizes();
      if (content.problem !== undefined) return;
      allKeys.push(file.key);
      // The type is recognised later from the whole submission; the file's row carries it.
      await deps.blobs.put(file.key, bytes, "application/octet-stream");
      stored.set(file.field, { key: file.key, fileId: file.fileId });
    };

    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        const part = next.value;
        if (fieldsJson !== undefined) throw outOfOrder("nothing may follow the fields of an upload");
        if (part.kind === "experiment") throw outOfOrder("an upload names its experiment once");
        if (part.kind === "base64") {
          if (!open) throw outOfOrder("a file piece must follow the file it belongs to");
          open.push(part.text);
          checkSizes();
          continue;
        }
        const ended = open;
        open = undefined;
        if (ended) await close(ended);
        if (part.kind === "fields") {
          if (Buffer.byteLength(part.json, "utf8") > MAX_FIELDS_JSON_BYTES) {
            throw new PayloadTooLargeError(
              `the fields of the submission (without files) are larger than ${MAX_FIELDS_JSON_BYTES} bytes`,
              { limit: "body", max_bytes: MAX_FIELDS_JSON_BYTES },
            );
          }
          fieldsJson = part.json;
          continue;
        }
        if (contents.has(part.field)) {
          throw new ValidationError("the results are invalid", [
            { field: part.field, code: "invalid_value", message: `${part.field} appears twice in the body` },
          ]);
        }
        if (contents.size >= MAX_FILES) {
          throw new ValidationError("the results are invalid", [
            {
              field: part.field,
              code: "invalid_value",
              message: `a submission holds at most ${MAX_FILES} files (raw data, photos and the lab notebook)`,
            },
          ]);
        }
        const fileId = newId("fil", now);
        open = new IncomingFile(part.field, blobKeyFor(before.id, fileId), fileId);
      }
      if (fieldsJson === undefined) throw outOfOrder("the upload ended before the fields of the submission");

      // The gateway checked depth and text while streaming; other callers reach this RPC too.
      const body = parseSafeJson("", fieldsJson, { what: "the submission" });
      const checked = checkStreamedSubmission(body, contents, RESULT_LIMITS);
      if (!checked.ok) {
        if (checked.kind === "too_large")
          throw new PayloadTooLargeError(checked.message, { ...checked.details });
        throw new ValidationError("the results are invalid", checked.fieldErrors);
      }
      const placed = checked.fields.map((field) => stored.get(field)!);
      const results = toStoredResults(checked.submission, {
        fileIds: placed.map((file) => file.fileId),
        submittedAt: now,
      });
      const record = await commitResults(deps, principal, before.id, {
        results,
        keys: placed.map((file) => file.key),
        now,
      });
      // A content the body no longer holds (e.g. under a key sent twice) is stored but unused.
      const used = new Set(checked.fields);
      await removeBlobs(
        deps,
        [...stored].filter(([field]) => !used.has(field)).map(([, file]) => file.key),
        before.id,
      );
      return record;
    } catch (error) {
      await removeBlobs(deps, allKeys, before.id);
      throw error;
    }
  };
}
