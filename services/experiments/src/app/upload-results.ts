import { NotFoundError, type Principal, ValidationError, parseSafeJson } from "@petri/service-kit";
import type { ExperimentRecord } from "../db/experiment-records.js";
import { findExperiment } from "../db/experiments.js";
import { assertAssignedOperator } from "../domain/authorization.js";
import { assertCan } from "../domain/lifecycle/transitions.js";
import { PayloadTooLargeError } from "../domain/payload-too-large.js";
import { RESULT_LIMITS, checkStreamedSubmission, toStoredResults } from "../domain/results/index.js";
import { type SubmitResultsDeps, commitResults, removeBlobs } from "./commit-results.js";
import { type UploadPart, UploadReceiver, outOfOrder } from "./results-upload-receiver.js";

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
    const upload = new UploadReceiver(deps, before.id, now);
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        await upload.accept(next.value);

      // The gateway checked depth and text while streaming; other callers reach this RPC too.
      const body = parseSafeJson("", upload.fields(), { what: "the submission" });
      const checked = checkStreamedSubmission(body, upload.contents, RESULT_LIMITS);
      if (!checked.ok) {
        if (checked.kind === "too_large")
          throw new PayloadTooLargeError(checked.message, { ...checked.details });
        throw new ValidationError("the results are invalid", checked.fieldErrors);
      }
      const placed = checked.fields.map((field) => upload.stored.get(field)!);
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
        [...upload.stored].filter(([field]) => !used.has(field)).map(([, file]) => file.key),
        before.id,
      );
      return record;
    } catch (error) {
      await removeBlobs(deps, upload.allKeys, before.id);
      throw error;
    }
  };
}
