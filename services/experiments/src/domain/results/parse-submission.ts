/**
 * parseSubmission: the operator's results submission (SPEC.md POST /operator/jobs/{id}/submit)
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

import type { FieldError } from "@petri/service-kit";
import type { z } from "zod";

import { readableMessage } from "../intake/issues.js";
import { formatPath, isPlainObject, ownValue, type PathSegment } from "../intake/paths.js";
import { decodeBase64, decodeBase64Head, measureBase64, type Base64Measure } from "./base64.js";
import { contentTypeForFormat, SNIFF_BYTES, sniffImage, sniffNotebook } from "./file-types.js";
import { RESULT_LIMITS, type ResultLimits } from "./limits.js";
import { submissionSchema, type ConfidenceLevel, type SubmissionBody } from "./schema.js";

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

export interface DecodedFile {
  readonly kind: FileKind;
  /** As sent for raw data; `photo-<n>.<ext>` (n from 1, in order) and `lab-notebook.<ext>` otherwise. */
  readonly name: string;
  /** Lower case: the declared format of raw data, the recognised type of photos and the notebook. */
  readonly format: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
  /** Lower-case hex SHA-256 of `bytes`. */
  readonly sha256: string;
  readonly step?: PhotoStep;
  readonly caption?: string;
}

export interface ParsedSubmission {
  readonly hypothesisSupported: boolean;
  readonly confidenceLevel: ConfidenceLevel;
  readonly summary: string;
  readonly measurements: readonly Measurement[];
  readonly statistics?: ResultStatistics;
  readonly notes?: string;
  /** Raw data files in order, then photos in order, then the lab notebook. */
  readonly files: readonly DecodedFile[];
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

interface FileContent {
  readonly kind: FileKind;
  readonly path: PathSegment[];
  readonly field: string;
  readonly text: string;
  readonly measure: Base64Measure;
}

/** Drops properties whose value is null; array items are kept (the body is at most 4 levels deep). */
function withoutNullProperties(value: unknown, depth = 0): unknown {
  if (depth > 4) return value;
  if (Array.isArray(value)) return value.map((item) => withoutNullProperties(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null) continue;
    Object.defineProperty(out, key, {
      value: withoutNullProperties(item, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function child(value: unknown, key: string): unknown {
  return isPlainObject(value) ? ownValue(value, key) : undefined;
}

/** Every file content string in the body, wherever the shape around it is right enough to find it. */
function findContents(body: Record<string, unknown>): FileContent[] {
  const found: FileContent[] = [];
  const add = (kind: FileKind, path: PathSegment[], text: unknown) => {
    if (typeof text !== "string") return;
    found.push({ kind, path, field: formatPath(path), text, measure: measureBase64(text) });
  };
  const uploads = ownValue(body, "raw_data_uploads");
  if (Array.isArray(uploads)) {
    uploads.forEach((upload, i) =>
      add("raw_data", ["raw_data_uploads", i, "content_base64"], child(upload, "content_base64")),
    );
  }
  const documentation = ownValue(body, "documentation");
  const photos = child(documentation, "photos");
  if (Array.isArray(photos)) {
    photos.forEach((photo, i) =>
      add("photo", ["documentation", "photos", i, "image_base64"], child(photo, "image_base64")),
    );
  }
  add("lab_notebook", ["documentation", "lab_notebook_base64"], child(documentation, "lab_notebook_base64"));
  return found;
}

function sizeProblem(
  contents: readonly FileContent[],
  limits: ResultLimits,
): Extract<SubmissionParse, { kind: "too_large" }> | undefined {
  for (const content of contents) {
    if (content.measure.decodedBytes > limits.maxFileBytes) {
      return {
        ok: false,
        kind: "too_large",
        message: `${content.field} is ${content.measure.decodedBytes} bytes once decoded; a file may have at most ${limits.maxFileBytes} bytes`,
        details: {
          limit: "file",
          max_bytes: limits.maxFileBytes,
          size_bytes: content.measure.decodedBytes,
          field: content.field,
        },
      };
    }
  }
  const total = contents.reduce((sum, content) => sum + content.measure.decodedBytes, 0);
  if (total > limits.maxSubmissionBytes) {
    return {
      ok: false,
      kind: "too_large",
      message: `The files of this submission are ${total} bytes once decoded; a submission may have at most ${limits.maxSubmissionBytes} bytes of files`,
      details: { limit: "submission", max_bytes: limits.maxSubmissionBytes, size_bytes: total },
    };
  }
  return undefined;
}

function shapeErrors(error: z.ZodError): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const path = issue.path as PathSegment[];
    const field = formatPath(path);
    const where = path.length === 0 ? "the submission" : field;
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        out.push({
          field: formatPath([...path, key]),
          code: "invalid_value",
          message: `Unknown field ${JSON.stringify(key)} in ${where}: it is not part of a results submission`,
        });
      }
    } else if (issue.code === "invalid_type" && issue.input === undefined) {
      out.push({ field, code: "missing_required", message: `${where} is required` });
    } else {
      out.push({ field, code: "invalid_value", message: `${where} ${issue.message}` });
    }
  }
  return out;
}

function contentErrors(contents: readonly FileContent[]): FieldError[] {
  const out: FieldError[] = [];
  for (const { kind, field, text, measure } of contents) {
    const fail = (predicate: string) =>
      out.push({ field, code: "invalid_value", message: `${field} ${predicate}` });
    if (measure.problem !== undefined) fail(measure.problem);
    else if (measure.decodedBytes === 0) fail("must not be empty: the file has no content");
    else if (kind === "photo" && sniffImage(decodeBase64Head(text, measure, SNIFF_BYTES)) === null)
      fail("must be a PNG, JPEG, GIF or WebP image");
    else if (kind === "lab_notebook" && sniffNotebook(decodeBase64Head(text, measure, SNIFF_BYTES)) === null)
      fail("must be a PDF or a PNG, JPEG, GIF or WebP image");
  }
  return out;
}

/** Two raw data files with the same name (ignoring case) would be indistinguishable downloads. */
function duplicateNameErrors(body: Record<string, unknown>): FieldError[] {
  const uploads = ownValue(body, "raw_data_uploads");
  if (!Array.isArray(uploads)) return [];
  const out: FieldError[] = [];
  const firstIndex = new Map<string, number>();
  uploads.forEach((upload, i) => {
    const name = child(upload, "name");
    if (typeof name !== "string" || name === "") return;
    const key = name.toLowerCase();
    const first = firstIndex.get(key);
    if (first === undefined) {
      firstIndex.set(key, i);
      return;
    }
    const field = formatPath(["raw_data_uploads", i, "name"]);
    out.push({
      field,
      code: "invalid_value",
      message: `${field} repeats the name of raw_data_uploads[${first}] (names must be unique, ignoring case)`,
    });
  });
  return out;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function decodeFiles(data: SubmissionBody, contents: readonly FileContent[]): DecodedFile[] {
  const byField = new Map(contents.map((content) => [content.field, content]));
  const decode = (path: PathSegment[]) => {
    const content = byField.get(formatPath(path));
    if (!content) throw new Error(`no measured content at ${formatPath(path)}`);
    const bytes = decodeBase64(content.text, content.measure);
    return { bytes, head: bytes.subarray(0, SNIFF_BYTES), sha256: sha256Hex(bytes) };
  };
  const files: DecodedFile[] = [];
  (data.raw_data_uploads ?? []).forEach((upload, i) => {
    const { bytes, sha256 } = decode(["raw_data_uploads", i, "content_base64"]);
    files.push({
      kind: "raw_data",
      name: upload.name,
      format: upload.format,
      contentType: contentTypeForFormat(upload.format),
      bytes,
      sha256,
    });
  });
  (data.documentation?.photos ?? []).forEach((photo, i) => {
    const { bytes, head, sha256 } = decode(["documentation", "photos", i, "image_base64"]);
    const type = sniffImage(head);
    if (!type) throw new Error("a photo that passed validation is not an image");
    files.push({
      kind: "photo",
      name: `photo-${i + 1}.${type.extension}`,
      format: type.format,
      contentType: type.contentType,
      bytes,
      sha256,
      ...(photo.step !== undefined ? { step: photo.step } : {}),
      ...(photo.caption !== undefined ? { caption: photo.caption } : {}),
    });
  });
  if (data.documentation?.lab_notebook_base64 !== undefined) {
    const { bytes, head, sha256 } = decode(["documentation", "lab_notebook_base64"]);
    const type = sniffNotebook(head);
    if (!type) throw new Error("a lab notebook that passed validation is not a PDF or an image");
    files.push({
      kind: "lab_notebook",
      name: `lab-notebook.${type.extension}`,
      format: type.format,
      contentType: type.contentType,
      bytes,
      sha256,
    });
  }
  return files;
}

const defaultSchema = submissionSchema(RESULT_LIMITS);

export function parseSubmission(body: unknown, limits: ResultLimits = RESULT_LIMITS): SubmissionParse {
  if (!isPlainObject(body)) {
    return {
      ok: false,
      kind: "invalid",
      fieldErrors: [
        { field: "", code: "invalid_value", message: "The submission body must be a JSON object" },
      ],
    };
  }
  const cleaned = withoutNullProperties(body) as Record<string, unknown>;

  const contents = findContents(cleaned);
  const tooLarge = sizeProblem(contents, limits);
  if (tooLarge) return tooLarge;

  const schema = limits === RESULT_LIMITS ? defaultSchema : submissionSchema(limits);
  const parsed = schema.safeParse(cleaned, { error: readableMessage, reportInput: true });
  const fieldErrors = [
    ...(parsed.success ? [] : shapeErrors(parsed.error)),
    ...contentErrors(contents),
    ...duplicateNameErrors(cleaned),
  ];
  if (!parsed.success || fieldErrors.length > 0) return { ok: false, kind: "invalid", fieldErrors };

  const data = parsed.data;
  const submission: ParsedSubmission = {
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
    files: decodeFiles(data, contents),
  };
  return { ok: true, submission };
}
