/**
 * The stored form of a results submission: everything the operator sent except the file bytes
 * (those live in the blob store under their file ids), as JSON the use case keeps with the
 * experiment, so that the results record (./results-record.ts) and the acceptance evaluation can
 * be rebuilt at any later time.
 *
 * `readStoredResults` validates what comes back from the database: stored JSON is ours, so a
 * mismatch is a bug or corruption and throws rather than producing a partial record.
 */
import { CONFIDENCE_LEVELS, type ConfidenceLevelName } from "@petri/contracts/vocabulary";
import { z } from "zod";

import type { ResultsInput } from "../acceptance/index.js";
import type {
  SubmittedFile,
  FileKind,
  Measurement,
  ParsedSubmission,
  PhotoStep,
  ResultStatistics,
} from "./parse-submission.js";

export const STORED_RESULTS_VERSION = 1;

/** One stored file, as the results record and GET /files need it. */
export interface StoredFile {
  readonly fileId: string;
  readonly kind: FileKind;
  readonly name: string;
  readonly format: string;
  readonly contentType: string;
  /** Lower-case hex SHA-256 of the bytes. */
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly step?: PhotoStep;
  readonly caption?: string;
  /** ISO 8601 UTC: when the file was stored (the submission time). */
  readonly createdAt: string;
}

/** The submitted fields without files (what the results record calls its scalar fields). */
export interface StoredResultsFields {
  readonly hypothesisSupported: boolean;
  readonly confidenceLevel: ConfidenceLevelName;
  readonly summary: string;
  readonly measurements: readonly Measurement[];
  readonly statistics?: ResultStatistics;
  readonly notes?: string;
}

export interface StoredResults extends StoredResultsFields {
  readonly version: typeof STORED_RESULTS_VERSION;
  /** In the submission's order: raw data files, photos, the lab notebook. */
  readonly files: readonly StoredFile[];
}

export interface FilePlacement {
  /** The id each file is stored under, one per `submission.files` entry, in the same order. */
  readonly fileIds: readonly string[];
  readonly submittedAt: Date;
}

function storedFile(file: SubmittedFile, fileId: string, createdAt: string): StoredFile {
  return {
    fileId,
    kind: file.kind,
    name: file.name,
    format: file.format,
    contentType: file.contentType,
    sha256: file.sha256,
    sizeBytes: file.sizeBytes,
    ...(file.step !== undefined ? { step: file.step } : {}),
    ...(file.caption !== undefined ? { caption: file.caption } : {}),
    createdAt,
  };
}

/** The JSON to store for a parsed submission whose files were stored under `placement.fileIds`. */
export function toStoredResults(
  submission: ParsedSubmission<SubmittedFile>,
  placement: FilePlacement,
): StoredResults {
  if (placement.fileIds.length !== submission.files.length) {
    throw new Error(
      `toStoredResults needs one file id per file: got ${placement.fileIds.length} for ${submission.files.length} files`,
    );
  }
  if (new Set(placement.fileIds).size !== placement.fileIds.length) {
    throw new Error("toStoredResults needs distinct file ids");
  }
  const createdAt = placement.submittedAt.toISOString();
  return {
    version: STORED_RESULTS_VERSION,
    hypothesisSupported: submission.hypothesisSupported,
    confidenceLevel: submission.confidenceLevel,
    summary: submission.summary,
    measurements: submission.measurements.map((m) => ({ ...m })),
    ...(submission.statistics ? { statistics: { ...submission.statistics } } : {}),
    ...(submission.notes !== undefined ? { notes: submission.notes } : {}),
    files: submission.files.map((file, i) => storedFile(file, placement.fileIds[i]!, createdAt)),
  };
}

const storedResultsSchema = z.strictObject({
  version: z.literal(STORED_RESULTS_VERSION),
  hypothesisSupported: z.boolean(),
  confidenceLevel: z.enum(CONFIDENCE_LEVELS),
  summary: z.string(),
  measurements: z.array(
    z.strictObject({
      metric: z.string(),
      value: z.number(),
      unit: z.string().optional(),
      condition: z.string().optional(),
    }),
  ),
  statistics: z.strictObject({ testUsed: z.string(), pValue: z.number().optional() }).optional(),
  notes: z.string().optional(),
  files: z.array(
    z.strictObject({
      fileId: z.string().min(1),
      kind: z.enum(["raw_data", "photo", "lab_notebook"]),
      name: z.string().min(1),
      format: z.string().min(1),
      contentType: z.string().min(1),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      sizeBytes: z.number().int().min(0),
      step: z.union([z.number().int(), z.string()]).optional(),
      caption: z.string().optional(),
      createdAt: z.iso.datetime(),
    }),
  ),
});

export class StoredResultsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoredResultsError";
  }
}

/** Reads stored results back (from a jsonb column, or JSON text). Throws StoredResultsError on anything else. */
export function readStoredResults(stored: unknown): StoredResults {
  let value = stored;
  if (typeof stored === "string") {
    try {
      value = JSON.parse(stored) as unknown;
    } catch {
      throw new StoredResultsError("stored results are not valid JSON");
    }
  }
  const parsed = storedResultsSchema.safeParse(value);
  if (!parsed.success) {
    const where = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
      .join("; ");
    throw new StoredResultsError(`stored results do not have the expected shape (${where})`);
  }
  return parsed.data;
}

/** The measurements and statistics as the results record and the acceptance evaluation name them (snake_case, null for none). */
export function structuredDataOf(results: StoredResultsFields) {
  return {
    measurements: results.measurements.map((m) => ({
      metric: m.metric,
      value: m.value,
      unit: m.unit ?? null,
      condition: m.condition ?? null,
    })),
    statistics: results.statistics
      ? { test_used: results.statistics.testUsed, p_value: results.statistics.pValue ?? null }
      : null,
  };
}

/** The results in the shape the acceptance evaluation (domain/acceptance) reads. */
export function toAcceptanceResults(results: StoredResultsFields): ResultsInput {
  return {
    structured_data: structuredDataOf(results),
    summary: results.summary,
    operator_notes: results.notes ?? null,
  };
}
