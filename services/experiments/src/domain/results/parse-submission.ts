/**
 * parseSubmission: the operator's results submission (docs/api.md POST /operator/jobs/{id}/submit)
 * from the JSON body as sent to decoded files and typed fields. Pure: no I/O, never throws on any
 * JSON input.
 *
 * Order of work, so that a huge upload costs no decoding:
 * 1. The body must be a JSON object; properties whose value is null count as absent (as for
 *    experiment requests, D19).
 * 2. Every file content string is measured (./base64.ts: without decoding or copying it). A file over
 *    `maxFileBytes`, or all of them together over `maxSubmissionBytes`, is `too_large` (413).
 * 3. The shape is checked (./schema.ts); each problem is a field error with a readable path, e.g.
 *    `raw_data_uploads[2].content_base64`: missing_required for an absent required field,
 *    invalid_value otherwise.
 * 4. Contents: strict base64, not empty, raw file names unique (case-insensitively), photos
 *    recognised as PNG/JPEG/GIF/WebP and the lab notebook as PDF or one of those images from
 *    their first bytes.
 * 5. Only a fully valid submission is decoded and hashed (SHA-256).
 */
import { createHash } from "node:crypto";

import type { ConfidenceLevelName } from "@petri/contracts/vocabulary";
import type { FieldError } from "@petri/service-kit";

import { formatPath, type PathSegment } from "../intake/paths.js";
import { decodeBase64, decodeBase64Head, measureBase64, type Base64Measure } from "./base64.js";
import { contentTypeForFormat, SNIFF_BYTES, sniffImage, sniffNotebook } from "./file-types.js";
import { RESULT_LIMITS, type ResultLimits } from "./limits.js";
import type { SubmissionBody } from "./schema.js";
import { checkSubmission, forEachContent, type ContentFacts } from "./submission-checks.js";

export type FileKind = "raw_data" | "photo" | "lab_notebook";

/** A photo's protocol step: its number, or a label such as "3a" or "harvest". */
export type PhotoStep = number | string;

export interface Measurement {
  readonly metric: string;
  readonly value: number;
  readonly unit?: string;
  readonly condition?: string;
}

export interface ResultStatistics {
  readonly testUsed: string;
  readonly pValue?: number;
}

/** A file of a valid submission, as stored and listed (its bytes go to the blob store apart). */
export interface SubmittedFile {
  readonly kind: FileKind;
  /** As sent for raw data; `photo-<n>.<ext>` (n from 1, in order) and `lab-notebook.<ext>` otherwise. */
  readonly name: string;
  /** Lower case: the declared format of raw data, the recognised type of photos and the notebook. */
  readonly format: string;
  readonly contentType: string;
  readonly sizeBytes: number;
  /** Lower-case hex SHA-256 of the bytes. */
  readonly sha256: string;
  readonly step?: PhotoStep;
  readonly caption?: string;
}

export interface DecodedFile extends SubmittedFile {
  readonly bytes: Uint8Array;
}

export interface ParsedSubmission<F extends SubmittedFile = DecodedFile> {
  readonly hypothesisSupported: boolean;
  readonly confidenceLevel: ConfidenceLevelName;
  readonly summary: string;
  readonly measurements: readonly Measurement[];
  readonly statistics?: ResultStatistics;
  readonly notes?: string;
  /** Raw data files in order, then photos in order, then the lab notebook. */
  readonly files: readonly F[];
}

export interface TooLargeDetails {
  /** Which limit: one file's, or the whole submission's. */
  readonly limit: "file" | "submission";
  readonly max_bytes: number;
  /** Decoded size of the file (limit "file") or of every file together (limit "submission"). */
  readonly size_bytes: number;
  /** Path of the file's content (limit "file" only). */
  readonly field?: string;
}

export type SubmissionParse =
  | { readonly ok: true; readonly submission: ParsedSubmission }
  /** 422 validation_failed, details.errors = fieldErrors. */
  | { readonly ok: false; readonly kind: "invalid"; readonly fieldErrors: FieldError[] }
  /** 413 payload_too_large. */
  | {
      readonly ok: false;
      readonly kind: "too_large";
      readonly message: string;
      readonly details: TooLargeDetails;
    };

// ---------------------------------------------------------------------------------------------

interface FileContent extends ContentFacts {
  readonly path: PathSegment[];
  readonly text: string;
  readonly measure: Base64Measure;
}

/** Every file content string in the body, wherever the shape around it is right enough to find it. */
function findContents(body: Record<string, unknown>): FileContent[] {
  const found: FileContent[] = [];
  forEachContent(body, (kind, path, text) => {
    if (typeof text !== "string") return;
    const measure = measureBase64(text);
    found.push({
      kind,
      path,
      field: formatPath(path),
      text,
      measure,
      decodedBytes: measure.decodedBytes,
      ...(measure.problem !== undefined ? { problem: measure.problem } : {}),
      head: () => decodeBase64Head(text, measure, SNIFF_BYTES),
    });
  });
  return found;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A file's content once known: what its description needs, plus whatever the caller keeps. */
export interface KnownContent {
  readonly sizeBytes: number;
  readonly sha256: string;
  readonly head: Uint8Array;
}

/** The files of a valid submission in order, each described from its content at its path. */
export function describeFiles<C extends KnownContent>(
  data: SubmissionBody,
  contentAt: (path: PathSegment[]) => C,
): Array<{ file: SubmittedFile; content: C }> {
  const files: Array<{ file: SubmittedFile; content: C }> = [];
  const described = (content: C, file: Omit<SubmittedFile, "sizeBytes" | "sha256">) =>
    files.push({ file: { ...file, sizeBytes: content.sizeBytes, sha256: content.sha256 }, content });
  (data.raw_data_uploads ?? []).forEach((upload, i) => {
    described(contentAt(["raw_data_uploads", i, "content_base64"]), {
      kind: "raw_data",
      name: upload.name,
      format: upload.format,
      contentType: contentTypeForFormat(upload.format),
    });
  });
  (data.documentation?.photos ?? []).forEach((photo, i) => {
    const content = contentAt(["documentation", "photos", i, "image_base64"]);
    const type = sniffImage(content.head);
    if (!type) throw new Error("a photo that passed validation is not an image");
    described(content, {
      kind: "photo",
      name: `photo-${i + 1}.${type.extension}`,
      format: type.format,
      contentType: type.contentType,
      ...(photo.step !== undefined ? { step: photo.step } : {}),
      ...(photo.caption !== undefined ? { caption: photo.caption } : {}),
    });
  });
  if (data.documentation?.lab_notebook_base64 !== undefined) {
    const content = contentAt(["documentation", "lab_notebook_base64"]);
    const type = sniffNotebook(content.head);
    if (!type) throw new Error("a lab notebook that passed validation is not a PDF or an image");
    described(content, {
      kind: "lab_notebook",
      name: `lab-notebook.${type.extension}`,
      format: type.format,
      contentType: type.contentType,
    });
  }
  return files;
}

function decodeFiles(data: SubmissionBody, contents: readonly FileContent[]): DecodedFile[] {
  const byField = new Map(contents.map((content) => [content.field, content]));
  return describeFiles(data, (path) => {
    const content = byField.get(formatPath(path));
    if (!content) throw new Error(`no measured content at ${formatPath(path)}`);
    const bytes = decodeBase64(content.text, content.measure);
    return {
      bytes,
      head: bytes.subarray(0, SNIFF_BYTES),
      sha256: sha256Hex(bytes),
      sizeBytes: bytes.byteLength,
    };
  }).map(({ file, content }) => ({ ...file, bytes: content.bytes }));
}

export function parseSubmission(body: unknown, limits: ResultLimits = RESULT_LIMITS): SubmissionParse {
  const checked = checkSubmission(body, limits, findContents);
  if (!checked.ok) return checked;
  const { data, contents } = checked;
  return { ok: true, submission: { ...submissionFields(data), files: decodeFiles(data, contents) } };
}

/** The typed fields of a valid submission, files apart. */
export function submissionFields(data: SubmissionBody): Omit<ParsedSubmission, "files"> {
  return {
    hypothesisSupported: data.hypothesis_supported,
    confidenceLevel: data.confidence_level,
    summary: data.summary,
    measurements: (data.measurements ?? []).map((m) => ({
      metric: m.metric,
      value: m.value,
      ...(m.unit !== undefined ? { unit: m.unit } : {}),
      ...(m.condition !== undefined ? { condition: m.condition } : {}),
    })),
    ...(data.statistics
      ? {
          statistics: {
            testUsed: data.statistics.test_used,
            ...(data.statistics.p_value !== undefined ? { pValue: data.statistics.p_value } : {}),
          },
        }
      : {}),
    ...(data.notes !== undefined ? { notes: data.notes } : {}),
  };
}
