/**
 * The end of a results submission, shared by SubmitResults and UploadResults once every file is in
 * the blob store: one transaction checks the status again on the locked row, inserts the results
 * and file rows, moves the experiment to pending_approval with results_submitted_at and records
 * ResultsSubmitted. And the clean-up when a submission fails: its stored blobs are deleted.
 */
import type { UnitOfWork } from "@petri/events";
import { type Clock, type Logger, NotFoundError, type Principal } from "@petri/service-kit";
import type { JsonValue } from "@petri/db";
import type { Kysely } from "kysely";
import type { BlobStore } from "../blobs/index.js";
import { type ExperimentRecord, loadRecord } from "../db/experiment-records.js";
import { findExperiment, updateExperiment } from "../db/experiments.js";
import { insertResultFiles, insertResults } from "../db/results.js";
import type { ExperimentsDb } from "../db/schema.js";
import { assertAssignedOperator } from "../domain/authorization.js";
import { transition } from "../domain/lifecycle/transitions.js";
import type { StoredResults } from "../domain/results/index.js";
import { recordResultsSubmitted } from "./experiment-events.js";

export interface SubmitResultsDeps {
  db: Kysely<ExperimentsDb>;
  clock: Clock;
  blobs: BlobStore;
  logger: Logger;
  unitOfWork: UnitOfWork<ExperimentsDb>;
}

/** Commits results whose files are stored: `keys[i]` holds `results.files[i]`. */
export async function commitResults(
  deps: SubmitResultsDeps,
  principal: Principal,
  experimentId: string,
  stored: { results: StoredResults; keys: readonly string[]; now: Date },
): Promise<ExperimentRecord> {
  const { results, keys, now } = stored;
  return deps.unitOfWork.run(async (trx) => {
    const current = await findExperiment(trx, experimentId, { lock: true });
    if (!current) throw new NotFoundError("experiment", experimentId);
    assertAssignedOperator(principal, current);
    const status = transition("submit_results", current.status);
    await insertResults(trx, {
      experimentId: current.id,
      results: results as unknown as { [key: string]: JsonValue },
      submittedBy: principal.accountId,
      submittedAt: now,
    });
    await insertResultFiles(
      trx,
      results.files.map((file, position) => ({
        file_id: file.fileId,
        experiment_id: current.id,
        kind: file.kind,
        name: file.name,
        format: file.format,
        content_type: file.contentType,
        size_bytes: file.sizeBytes,
        sha256: file.sha256,
        blob_key: keys[position]!,
        step: file.step ?? null,
        caption: file.caption ?? null,
        position,
        created_at: now,
      })),
    );
    const updated = await updateExperiment(trx, current, {
      status,
      started_at: current.started_at ?? now,
      results_submitted_at: now,
      updated_at: now,
    });
    const submitted = await loadRecord(trx, updated);
    await recordResultsSubmitted(trx, submitted, results.files.length, now);
    return submitted;
  });
}

/** Deletes the blobs of a failed submission (best effort: a failed delete is logged with its key). */
export async function removeBlobs(deps: SubmitResultsDeps, keys: readonly string[], experimentId: string) {
  for (const key of keys) {
    try {
      await deps.blobs.delete(key);
    } catch (error) {
      deps.logger.error(
        { err: error, key, experimentId },
        "could not delete a result file of a failed submission; the blob is orphaned",
      );
    }
  }
}
