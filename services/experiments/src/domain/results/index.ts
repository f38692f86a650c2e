/**
 * Results submission: parsing and decoding the operator's submit body, its stored form, the
 * docs/api.md results record and the bridge to the acceptance evaluation. Pure domain code: no I/O,
 * no clock reads (the caller passes times and file ids).
 */
export { RESULT_LIMITS, maxSubmitBodyBytes, type ResultLimits } from "./limits.js";
export {
  parseSubmission,
  type DecodedFile,
  type SubmittedFile,
  type FileKind,
  type Measurement,
  type ParsedSubmission,
  type PhotoStep,
  type ResultStatistics,
  type SubmissionParse,
  type TooLargeDetails,
} from "./parse-submission.js";
export {
  checkStreamedSubmission,
  type StreamedContent,
  type StreamedSubmissionParse,
} from "./streamed-submission.js";
export { Base64StreamDecoder } from "./base64-stream.js";
export { SNIFF_BYTES } from "./file-types.js";
export {
  readStoredResults,
  STORED_RESULTS_VERSION,
  StoredResultsError,
  toAcceptanceResults,
  toStoredResults,
  type FilePlacement,
  type StoredFile,
  type StoredResults,
  type StoredResultsFields,
} from "./stored-results.js";
export {
  buildResultsRecord,
  type ResultFileDescriptor,
  type ResultsRecord,
  type ResultsRecordInput,
} from "./results-record.js";
export { contentTypeForFormat } from "./file-types.js";
