/**
 * The checks of a results submission that need no decoding: where its file contents are, their
 * sizes against the limits, the shape's errors, the contents' encodings and types, and unique
 * raw file names. Shared by the JSON body parse and the streamed upload.
 */
import type { FieldError } from "@petri/service-kit";
import type { z } from "zod";

import { readableMessage } from "../intake/issues.js";
import {
  child,
  formatPath,
  isPlainObject,
  ownValue,
  type PathSegment,
  withoutNullProperties,
} from "../intake/paths.js";
import { sniffImage, sniffNotebook } from "./file-types.js";
import { RESULT_LIMITS, type ResultLimits } from "./limits.js";
import type { FileKind, SubmissionParse } from "./parse-submission.js";
import { type SubmissionBody, submissionSchema } from "./schema.js";

/** What the checks need to know of one file content, however it arrived. */
export interface ContentFacts {
  readonly kind: FileKind;
  readonly field: string;
  /** Decoded size: exact when there is no problem, otherwise an estimate (see Base64Measure). */
  readonly decodedBytes: number;
  /** Why the content is not valid base64, as a predicate. */
  readonly problem?: string;
  /** The first decoded bytes (at least SNIFF_BYTES when the file is that long). */
  head(): Uint8Array;
}

/** How deep a submission body goes: null properties below it are left as they are. */
const BODY_DEPTH = 4;

const defaultSchema = submissionSchema(RESULT_LIMITS);

/** The submission schema for `limits` (built once for the default limits). */
function schemaFor(limits: ResultLimits) {
  return limits === RESULT_LIMITS ? defaultSchema : submissionSchema(limits);
}

/** A submission refused: 422 with its field errors, or 413 for a file or the total over its limit. */
export type SubmissionRefusal = Exclude<SubmissionParse, { ok: true }>;

/**
 * The checks a submission goes through however its files arrive, in this order: the body must be
 * a JSON object (null properties count as absent); no file, nor all of them together, may be over
 * the limits; then every shape, content and name error at once. `contentsOf` finds what is known
 * of each file content in the cleaned body. A valid submission comes back typed, with its contents.
 */
export function checkSubmission<C extends ContentFacts>(
  body: unknown,
  limits: ResultLimits,
  contentsOf: (cleaned: Record<string, unknown>) => C[],
): { readonly ok: true; readonly data: SubmissionBody; readonly contents: C[] } | SubmissionRefusal {
  if (!isPlainObject(body)) {
    return {
      ok: false,
      kind: "invalid",
      fieldErrors: [
        { field: "", code: "invalid_value", message: "The submission body must be a JSON object" },
      ],
    };
  }
  const cleaned = withoutNullProperties(body, BODY_DEPTH) as Record<string, unknown>;
  const contents = contentsOf(cleaned);
  const tooLarge = sizeProblem(contents, limits);
  if (tooLarge) return tooLarge;

  const parsed = schemaFor(limits).safeParse(cleaned, { error: readableMessage, reportInput: true });
  const fieldErrors: FieldError[] = [
    ...(parsed.success ? [] : shapeErrors(parsed.error)),
    ...contentErrors(contents),
    ...duplicateNameErrors(cleaned),
  ];
  if (!parsed.success || fieldErrors.length > 0) return { ok: false, kind: "invalid", fieldErrors };
  return { ok: true, data: parsed.data, contents };
}

/** Calls `visit` for every file content string in the body (docs/api.md: the three places files go). */
export function forEachContent(
  body: Record<string, unknown>,
  visit: (kind: FileKind, path: PathSegment[], text: string) => void,
): void {
  const add = (kind: FileKind, path: PathSegment[], text: unknown) => {
    if (typeof text === "string") visit(kind, path, text);
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
}

function sizeProblem(
  contents: readonly ContentFacts[],
  limits: ResultLimits,
): Extract<SubmissionParse, { kind: "too_large" }> | undefined {
  for (const content of contents) {
    if (content.decodedBytes > limits.maxFileBytes) {
      return {
        ok: false,
        kind: "too_large",
        message: `${content.field} is ${content.decodedBytes} bytes once decoded; a file may have at most ${limits.maxFileBytes} bytes`,
        details: {
          limit: "file",
          max_bytes: limits.maxFileBytes,
          size_bytes: content.decodedBytes,
          field: content.field,
        },
      };
    }
  }
  const total = contents.reduce((sum, content) => sum + content.decodedBytes, 0);
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

function contentErrors(contents: readonly ContentFacts[]): FieldError[] {
  const out: FieldError[] = [];
  for (const content of contents) {
    const { kind, field, problem } = content;
    const fail = (predicate: string) =>
      out.push({ field, code: "invalid_value", message: `${field} ${predicate}` });
    if (problem !== undefined) fail(problem);
    else if (content.decodedBytes === 0) fail("must not be empty: the file has no content");
    else if (kind === "photo" && sniffImage(content.head()) === null)
      fail("must be a PNG, JPEG, GIF or WebP image");
    else if (kind === "lab_notebook" && sniffNotebook(content.head()) === null)
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
