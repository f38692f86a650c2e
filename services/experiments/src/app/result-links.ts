/**
 * The results record of an experiment with short-lived signed file URLs (GET results, and
 * the staff view of a dispute), and the key those URLs are signed with.
 */
import type { Clock } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { FILE_URL_TTL_SECONDS, signFileUrl } from "../blobs/index.js";
import { fileUrlKey } from "../db/file-url-keys.js";
import { findResults } from "../db/results.js";
import type { ExperimentRow, ExperimentsDb } from "../db/schema.js";
import { assertResultsReadable } from "../domain/lifecycle/index.js";
import {
  type ResultsRecord,
  type StoredResults,
  buildResultsRecord,
  readStoredResults,
} from "../domain/results/index.js";

/**
 * The signing key, read (or created, by the first replica that needs it) once per process:
 * it never changes, and every URL and every download needs it.
 */
export function fileUrlKeySource(deps: {
  db: Kysely<ExperimentsDb>;
  clock: Clock;
}): () => Promise<Uint8Array> {
  let key: Promise<Uint8Array> | undefined;
  return () => {
    key ??= fileUrlKey(deps.db, deps.clock.now()).catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    return key;
  };
}

export interface SignedResults {
  record: ResultsRecord;
  stored: StoredResults;
  urlsExpireAt: Date;
}

/** The record of an experiment whose status allows reading results (409 invalid_state before). */
export async function signedResults(
  db: Kysely<ExperimentsDb>,
  experiment: ExperimentRow,
  signingKey: Uint8Array,
  now: Date,
): Promise<SignedResults> {
  assertResultsReadable(experiment.status);
  const row = await findResults(db, experiment.id);
  // Readable statuses come only with results; a missing row is a broken invariant (500).
  if (!row) throw new Error(`experiment ${experiment.id} is ${experiment.status} but has no results`);
  const stored = readStoredResults(row.results);
  let urlsExpireAt = new Date(now.getTime() + FILE_URL_TTL_SECONDS * 1000);
  const record = buildResultsRecord({
    experimentId: experiment.id,
    status: experiment.status,
    submittedAt: row.submitted_at,
    results: stored,
    files: stored.files,
    urlFor: (fileId) => {
      const signed = signFileUrl(signingKey, fileId, now, FILE_URL_TTL_SECONDS);
      urlsExpireAt = signed.expiresAt;
      return signed.url;
    },
  });
  return { record, stored, urlsExpireAt };
}
