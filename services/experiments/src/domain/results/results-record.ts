/**
 * The results record of docs/api.md "Results" (GET /experiments/{id}/results), rebuilt from the stored
 * submission. File urls come from `urlFor` (short-lived signed urls, see src/blobs/signed-urls.ts),
 * so the record is built per read and never stored.
 *
 * Beyond docs/api.md's fields: raw data files carry `size_bytes`, photos their `caption`, and the
 * record its `submitted_at`. Absent optional values are null (never missing keys), so clients see
 * one shape. A photo's `timestamp` is when it was submitted: the operator sends no capture time.
 */
import type { FileKind, PhotoStep } from "./parse-submission.js";
import { type StoredResultsFields, structuredDataOf } from "./stored-results.js";

export interface ResultsRecord {
  readonly experiment_id: string;
  readonly status: string;
  readonly hypothesis_supported: boolean;
  readonly confidence_level: string;
  readonly summary: string;
  readonly structured_data: {
    readonly measurements: readonly {
      readonly metric: string;
      readonly value: number;
      readonly unit: string | null;
      readonly condition: string | null;
    }[];
    readonly statistics: { readonly test_used: string; readonly p_value: number | null } | null;
  };
  readonly raw_data_files: readonly {
    readonly name: string;
    readonly format: string;
    readonly url: string;
    readonly checksum_sha256: string;
    readonly size_bytes: number;
  }[];
  readonly documentation: {
    readonly photos: readonly {
      readonly step: PhotoStep | null;
      readonly url: string;
      readonly timestamp: string;
      readonly caption: string | null;
    }[];
    readonly lab_notebook_url: string | null;
  };
  readonly operator_notes: string | null;
  readonly submitted_at: string;
}

/** A stored file as the record needs it: StoredFile fits, and so does a database row. */
export interface ResultFileDescriptor {
  readonly fileId: string;
  readonly kind: FileKind;
  readonly name: string;
  readonly format: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly step?: PhotoStep | null;
  readonly caption?: string | null;
  readonly createdAt: Date | string;
}

export interface ResultsRecordInput {
  readonly experimentId: string;
  /** The experiment's current status (pending_approval, completed, disputed, resolved). */
  readonly status: string;
  readonly submittedAt: Date | string;
  readonly results: StoredResultsFields;
  /** In submission order (StoredResults.files keeps it). */
  readonly files: readonly ResultFileDescriptor[];
  readonly urlFor: (fileId: string) => string;
}

function isoString(at: Date | string): string {
  const date = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a valid time: ${String(at)}`);
  return date.toISOString();
}

export function buildResultsRecord(input: ResultsRecordInput): ResultsRecord {
  const { results, files, urlFor } = input;
  const ofKind = (kind: FileKind) => files.filter((file) => file.kind === kind);
  const notebooks = ofKind("lab_notebook");
  if (notebooks.length > 1) throw new Error("a submission has at most one lab notebook");
  return {
    experiment_id: input.experimentId,
    status: input.status,
    hypothesis_supported: results.hypothesisSupported,
    confidence_level: results.confidenceLevel,
    summary: results.summary,
    structured_data: structuredDataOf(results),
    raw_data_files: ofKind("raw_data").map((file) => ({
      name: file.name,
      format: file.format,
      url: urlFor(file.fileId),
      checksum_sha256: file.sha256,
      size_bytes: file.sizeBytes,
    })),
    documentation: {
      photos: ofKind("photo").map((file) => ({
        step: file.step ?? null,
        url: urlFor(file.fileId),
        timestamp: isoString(file.createdAt),
        caption: file.caption ?? null,
      })),
      lab_notebook_url: notebooks[0] ? urlFor(notebooks[0].fileId) : null,
    },
    operator_notes: results.notes ?? null,
    submitted_at: isoString(input.submittedAt),
  };
}
