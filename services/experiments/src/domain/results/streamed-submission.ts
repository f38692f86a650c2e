/**
 * checkStreamedSubmission: the rules of parseSubmission for a submission whose files arrived apart
 * (UploadResults): the body without its file contents (each replaced by "") and, per content path,
 * what decoding the streamed content found. Pure: the caller decoded, hashed and stored the bytes.
 *
 * The outcome is the one parseSubmission gives for the same body: 413 for a file or the total
 * over its limit, else every shape, content and name error at once, else the typed submission
 * with its files in the stored order, each with the path its bytes came from.
 */
import { formatPath } from "../intake/paths.js";
import { RESULT_LIMITS, type ResultLimits } from "./limits.js";
import {
  type ParsedSubmission,
  type SubmissionParse,
  type SubmittedFile,
  describeFiles,
  submissionFields,
} from "./parse-submission.js";
import { type ContentFacts, checkSubmission, forEachContent } from "./submission-checks.js";

/** What decoding one streamed file content found. */
export interface StreamedContent {
  /** Exact for valid base64, an estimate otherwise (Base64StreamDecoder.decodedBytes). */
  readonly decodedBytes: number;
  readonly problem?: string;
  /** Lower-case hex SHA-256 of the decoded bytes. */
  readonly sha256: string;
  /** The first decoded bytes, for recognising photos and notebooks. */
  readonly head: Uint8Array;
}

export type StreamedSubmissionParse =
  | {
      readonly ok: true;
      readonly submission: ParsedSubmission<SubmittedFile>;
      /** The content path of each of `submission.files`, in the same order. */
      readonly fields: readonly string[];
    }
  | Exclude<SubmissionParse, { ok: true }>;

const NOT_STREAMED = "was not received as a file (its content must arrive in file pieces)";

export function checkStreamedSubmission(
  body: unknown,
  streamed: ReadonlyMap<string, StreamedContent>,
  limits: ResultLimits = RESULT_LIMITS,
): StreamedSubmissionParse {
  const checked = checkSubmission(body, limits, (cleaned) => streamedContents(cleaned, streamed));
  if (!checked.ok) return checked;
  const files = describeFiles(checked.data, (path) => {
    const field = formatPath(path);
    const content = streamed.get(field);
    if (!content) throw new Error(`no streamed content at ${field}`);
    return { field, sizeBytes: content.decodedBytes, sha256: content.sha256, head: content.head };
  });
  return {
    ok: true,
    submission: { ...submissionFields(checked.data), files: files.map(({ file }) => file) },
    fields: files.map(({ content }) => content.field),
  };
}

/** What is known of each file content in the body: what decoding its streamed bytes found. */
function streamedContents(
  cleaned: Record<string, unknown>,
  streamed: ReadonlyMap<string, StreamedContent>,
): ContentFacts[] {
  const contents: ContentFacts[] = [];
  forEachContent(cleaned, (kind, path, text) => {
    const field = formatPath(path);
    const content = streamed.get(field);
    if (content === undefined || text !== "") {
      contents.push({ kind, field, decodedBytes: 0, problem: NOT_STREAMED, head: () => new Uint8Array(0) });
      return;
    }
    contents.push({
      kind,
      field,
      decodedBytes: content.decodedBytes,
      ...(content.problem !== undefined ? { problem: content.problem } : {}),
      head: () => content.head,
    });
  });
  return contents;
}
