/**
 * Strict base64 (RFC 4648 §4) for uploaded file contents.
 *
 * Accepted: the standard alphabet (A-Z a-z 0-9 + /) with the padding `=` required up to a multiple
 * of 4 characters and zero padding bits (the canonical encoding, so bytes round-trip exactly);
 * line breaks (CR and LF, as `base64` and MIME encoders wrap lines) anywhere; an optional
 * `data:<type>/<subtype>[;param=value]*;base64,` prefix (what a browser's FileReader produces),
 * whose declared type is ignored. Refused: the base64url alphabet (- and _), spaces and tabs, any
 * other character, missing or misplaced padding, non-zero padding bits.
 *
 * `measureBase64` validates and sizes the text without decoding or copying it, so an oversized
 * upload is refused before it is decoded.
 */

export const MAX_PREFIX_CHARS = 256;
export const DATA_URL_PREFIX =
  /^data:[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(?:;[a-z0-9!#$&^_.+-]+=[a-z0-9!#$&^_.+-]*)*;base64,/i;

const CR = 13;
const LF = 10;
const PAD = 61; // "="

/** Value of a standard-alphabet character, -1 otherwise. */
export function sextet(code: number): number {
  if (code >= 65 && code <= 90) return code - 65; // A-Z
  if (code >= 97 && code <= 122) return code - 71; // a-z
  if (code >= 48 && code <= 57) return code + 4; // 0-9
  if (code === 43) return 62; // +
  if (code === 47) return 63; // /
  return -1;
}

export interface Base64Measure {
  /** Index of the first base64 character (after a data: prefix, else 0). */
  readonly start: number;
  /**
   * Decoded size in bytes: exact when `problem` is undefined, otherwise an estimate (3/4 of the
   * characters other than line breaks and "=") that is still good enough to refuse an oversized
   * upload.
   */
  readonly decodedBytes: number;
  /** Why the text is not valid base64, as a predicate ("is not valid base64: …"). */
  readonly problem?: string;
}

export function describeCharacter(code: number): string {
  if (code < 32 || (code >= 127 && code < 160))
    return `control character U+${code.toString(16).padStart(4, "0")}`;
  if (code === 32) return "a space";
  return `character ${JSON.stringify(String.fromCharCode(code))}`;
}

function dataPrefixLength(text: string): number | { problem: string } {
  if (!text.startsWith("data:")) return 0;
  const match = DATA_URL_PREFIX.exec(text.slice(0, MAX_PREFIX_CHARS));
  if (!match) {
    return {
      problem: "is not valid base64: its data: prefix is not of the form data:<type>/<subtype>;base64,",
    };
  }
  return match[0].length;
}

/** Well-formed text from `lastIndex` on: alphabet and line breaks, then at most two "=". */
const WELL_FORMED = /[A-Za-z0-9+/\r\n]*(?:=[\r\n]*){0,2}$/y;

function countOf(text: string, char: string, from: number): number {
  let count = 0;
  for (let at = text.indexOf(char, from); at !== -1; at = text.indexOf(char, at + 1)) count += 1;
  return count;
}

/** The first character that makes text (known not to be well formed) invalid, as a reason. */
function firstProblem(text: string, from: number): string {
  let padding = 0;
  for (let i = from; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === CR || code === LF) continue;
    if (sextet(code) >= 0) {
      if (padding > 0) return `character at position ${i} follows the padding "="`;
    } else if (code === PAD) {
      padding += 1;
      if (padding > 2) return `more than two padding characters "=" at position ${i}`;
    } else if (code === 45 || code === 95) {
      return `${describeCharacter(code)} at position ${i} belongs to base64url; use standard base64 (+ and /)`;
    } else if (code === 32 || code === 9) {
      return `${describeCharacter(code)} at position ${i}; only line breaks may separate the characters`;
    } else {
      return `${describeCharacter(code)} at position ${i} is not in the base64 alphabet`;
    }
  }
  return "it is malformed";
}

/**
 * Validates `text` as strict base64 and computes its decoded size, without decoding it. The shape
 * is checked with one regular expression and line breaks are counted with indexOf, both far faster
 * than a loop over the characters in JavaScript; the loop runs only to explain invalid text.
 */
export function measureBase64(text: string): Base64Measure {
  const prefix = dataPrefixLength(text);
  if (typeof prefix !== "number") {
    return { start: 0, decodedBytes: Math.floor((text.length * 3) / 4), problem: prefix.problem };
  }
  const lineBreaks = countOf(text, "\n", prefix) + countOf(text, "\r", prefix);
  const padding = countOf(text, "=", prefix);
  const dataChars = text.length - prefix - lineBreaks - padding;
  const invalid = (reason: string): Base64Measure => ({
    start: prefix,
    decodedBytes: Math.max(0, Math.floor((dataChars * 3) / 4)),
    problem: `is not valid base64: ${reason}`,
  });

  WELL_FORMED.lastIndex = prefix;
  if (!WELL_FORMED.test(text)) return invalid(firstProblem(text, prefix));
  const total = dataChars + padding;
  if (total % 4 !== 0) {
    return invalid(
      `its length (${total} characters without line breaks) is not a multiple of 4: the text is truncated or ${
        padding === 0 ? 'the "=" padding is missing' : "wrongly padded"
      }`,
    );
  }
  if (padding > 0) {
    // A padded final group carries 2 (one "=") or 4 (two "=") unused low bits: they must be zero.
    let last = text.length - 1;
    while (last >= prefix && sextet(text.charCodeAt(last)) < 0) last -= 1;
    const unusedBits = padding === 1 ? 0b11 : 0b1111;
    if ((sextet(text.charCodeAt(last)) & unusedBits) !== 0) {
      return invalid("the bits before the padding are not zero (not the canonical encoding)");
    }
  }
  return { start: prefix, decodedBytes: (total / 4) * 3 - padding };
}

/**
 * Decodes text that `measureBase64` accepted. Node's decoder skips the line breaks; the length is
 * checked against the measure so a disagreement can never pass silently.
 */
export function decodeBase64(text: string, measure: Base64Measure): Uint8Array {
  if (measure.problem !== undefined) throw new Error("decodeBase64 needs text measureBase64 accepted");
  const buffer = Buffer.from(measure.start === 0 ? text : text.slice(measure.start), "base64");
  if (buffer.length !== measure.decodedBytes) {
    throw new Error(`base64 decoded to ${buffer.length} bytes, expected ${measure.decodedBytes}`);
  }
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/**
 * The first `count` decoded bytes of accepted text (fewer when the content is shorter), decoding
 * only the characters needed: enough to recognise a file type from its magic bytes.
 */
export function decodeBase64Head(text: string, measure: Base64Measure, count: number): Uint8Array {
  const wanted = Math.ceil(count / 3) * 4;
  let chunk = "";
  for (let i = measure.start; i < text.length && chunk.length < wanted; i += 1) {
    const code = text.charCodeAt(i);
    if (code !== CR && code !== LF) chunk += text[i];
  }
  const head = Buffer.from(chunk, "base64");
  return new Uint8Array(head.buffer, head.byteOffset, Math.min(count, head.byteLength));
}
