/**
 * Size and count limits of a results submission (POST /operator/jobs/{id}/submit). docs/api.md states
 * none; these are ours (docs/decisions). Byte limits apply to the DECODED file contents and are
 * checked from the base64 length before anything is decoded.
 */
export interface ResultLimits {
  /** Largest single decoded file (raw data upload, photo or lab notebook). */
  readonly maxFileBytes: number;
  /** Largest sum of every decoded file of one submission. */
  readonly maxSubmissionBytes: number;
  readonly maxRawFiles: number;
  readonly maxPhotos: number;
  readonly maxMeasurements: number;
  /** Text limits in characters (Unicode code points). */
  readonly maxSummaryChars: number;
  readonly maxNotesChars: number;
  readonly maxCaptionChars: number;
  readonly maxFileNameChars: number;
  readonly maxMetricChars: number;
  readonly maxUnitChars: number;
  readonly maxConditionChars: number;
  readonly maxTestNameChars: number;
  readonly maxStepLabelChars: number;
}

export const RESULT_LIMITS: ResultLimits = {
  maxFileBytes: 10 * 1024 * 1024,
  maxSubmissionBytes: 25 * 1024 * 1024,
  maxRawFiles: 20,
  maxPhotos: 50,
  maxMeasurements: 5000,
  maxSummaryChars: 10_000,
  maxNotesChars: 10_000,
  maxCaptionChars: 1000,
  maxFileNameChars: 200,
  maxMetricChars: 200,
  maxUnitChars: 32,
  maxConditionChars: 200,
  maxTestNameChars: 100,
  maxStepLabelChars: 100,
};

/** Room for every non-file field at its limits (5,000 measurements of ~500 bytes, texts, keys). */
const NON_FILE_ALLOWANCE_BYTES = 4 * 1024 * 1024;

/**
 * The largest JSON body of a submission that can still be within `limits`, for the gateway's body
 * size limit on the submit route: base64 makes files 4/3 larger, MIME line breaks (CRLF every 76
 * characters, 4 bytes each as the JSON escape `\r\n`) add 4/76, and each file may carry a
 * `data:` prefix.
 */
export function maxSubmitBodyBytes(limits: ResultLimits = RESULT_LIMITS): number {
  const files = limits.maxRawFiles + limits.maxPhotos + 1;
  const base64 = Math.ceil(limits.maxSubmissionBytes / 3) * 4;
  const lineBreaks = Math.ceil(base64 / 76) * 4;
  const dataPrefixes = files * 256;
  return base64 + lineBreaks + dataPrefixes + NON_FILE_ALLOWANCE_BYTES;
}
