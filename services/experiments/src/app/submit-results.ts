import { NotFoundError, type Principal, ValidationError, newId, parseSafeJson } from "@petri/service-kit";
import { blobKeyFor } from "../blobs/index.js";
import type { ExperimentRecord } from "../db/experiment-records.js";
import { findExperiment } from "../db/experiments.js";
import { assertAssignedOperator } from "../domain/authorization.js";
import { assertCan } from "../domain/lifecycle/transitions.js";
import { PayloadTooLargeError } from "../domain/payload-too-large.js";
import {
  type DecodedFile,
  type ParsedSubmission,
  RESULT_LIMITS,
  maxSubmitBodyBytes,
  parseSubmission,
  toStoredResults,
} from "../domain/results/index.js";
import { type SubmitResultsDeps, commitResults, removeBlobs } from "./commit-results.js";

export type { SubmitResultsDeps } from "./commit-results.js";

/** The submit body as JSON text: too large 413 payload_too_large, not JSON 422. */
function parseBody(resultsJson: string): unknown {
  const maxBytes = maxSubmitBodyBytes(RESULT_LIMITS);
  const bytes = Buffer.byteLength(resultsJson, "utf8");
  if (bytes > maxBytes)
    throw new PayloadTooLargeError(`the submission is larger than ${maxBytes} bytes`, {
      limit: "body",
      max_bytes: maxBytes,
      size_bytes: bytes,
    });
  return parseSafeJson("", resultsJson === "" ? "{}" : resultsJson, { what: "the submission" });
}

function parsed(body: unknown): ParsedSubmission {
  const result = parseSubmission(body, RESULT_LIMITS);
  if (result.ok) return result.submission;
  if (result.kind === "too_large") throw new PayloadTooLargeError(result.message, { ...result.details });
  throw new ValidationError("the results are invalid", result.fieldErrors);
}

/**
 * POST /operator/jobs/{id}/submit: the assigned operator submits results, from in_progress or
 * from claimed (submitting implies the work started: started_at is set then if it was not).
 *
 * 1. Who and when, before the body is decoded: 404 / 403 (requester, staff) / 409 invalid_state.
 * 2. The body: too large 413 payload_too_large, invalid 422 (domain/results parseSubmission).
 * 3. Every file goes to the blob store under results/<experiment>/<file id> BEFORE the
 *    transaction, so the transaction holds no lock during file I/O.
 * 4. One transaction (./commit-results.ts): the status is checked again on the locked row, results
 *    and file rows are inserted, the experiment moves to pending_approval with
 *    results_submitted_at, and ResultsSubmitted is recorded. A repeated submit finds
 *    pending_approval: 409.
 * If storing or the transaction fails, the blobs already put are deleted (best effort; a
 * failed delete is logged with its key), so no file is left without its record silently.
 */
export function makeSubmitResults(deps: SubmitResultsDeps) {
  return async function submitResults(
    principal: Principal,
    input: { experimentId: string; resultsJson: string },
  ): Promise<ExperimentRecord> {
    const body = parseBody(input.resultsJson);
    const before = await findExperiment(deps.db, input.experimentId);
    if (!before) throw new NotFoundError("experiment", input.experimentId);
    assertAssignedOperator(principal, before);
    assertCan("submit_results", before.status);
    const submission = parsed(body);

    const now = deps.clock.now();
    const fileIds = submission.files.map(() => newId("fil", now));
    const keys = fileIds.map((fileId) => blobKeyFor(before.id, fileId));
    const stored: string[] = [];
    try {
      // Every put settles before a failure is raised, so `stored` names every blob to remove.
      const puts = await Promise.allSettled(
        submission.files.map(async (file: DecodedFile, i) => {
          await deps.blobs.put(keys[i]!, file.bytes, file.contentType);
          stored.push(keys[i]!);
        }),
      );
      const failedPut = puts.find((put) => put.status === "rejected");
      if (failedPut) throw failedPut.reason;
      const results = toStoredResults(submission, { fileIds, submittedAt: now });
      const record = await commitResults(deps, principal, before.id, { results, keys, now });
      return record;
    } catch (error) {
      await removeBlobs(deps, stored, before.id);
      throw error;
    }
  };
}
