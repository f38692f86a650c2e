/**
 * Strict base64 decoding of a file content that arrives in pieces (UploadResults), with the rules
 * of ./base64.ts: the standard alphabet, line breaks anywhere, padding "=" only at the end and up
 * to a multiple of 4, zero padding bits, an optional `data:…;base64,` prefix. A problem is
 * reported with the same wording (and the position in the whole text) as measureBase64, so a
 * streamed and a unary submission answer alike.
 *
 * Only the characters of an incomplete 4-character group are carried from one piece to the next;
 * each piece's complete groups are decoded at once and handed back.
 */
import { DATA_URL_PREFIX, MAX_PREFIX_CHARS, describeCharacter, sextet } from "./base64.js";

const CR = 13;
const LF = 10;
const PAD = 61; // "="
const PLAIN = /^[A-Za-z0-9+/\r\n]*$/;
const LINE_BREAKS = /[\r\n]/g;
const NO_BYTES = new Uint8Array(0);

export class Base64StreamDecoder {
  /** The first characters, held until the data: prefix (if any) is known. */
  #head: string | undefined = "";
  /** Characters seen so far (line breaks included): positions in messages count them. */
  #position = 0;
  /** Base64 characters (not line breaks, not "=") seen: the decoded size estimate. */
  #dataChars = 0;
  #padding = 0;
  /** Data characters of the group not yet complete. */
  #carry = "";
  /** The last data character's value, for the padding-bits check. */
  #lastSextet = 0;
  #problem: string | undefined;
  #decodedBytes = 0;

  /** Why the text is not valid base64 ("is not valid base64: …"), once known. */
  get problem(): string | undefined {
    return this.#problem;
  }

  /**
   * Decoded size so far: exact for valid text, otherwise 3/4 of the characters other than line
   * breaks and "=" (good enough to refuse an oversized upload, as measureBase64 does).
   */
  get decodedBytes(): number {
    return this.#problem === undefined ? this.#decodedBytes : Math.floor((this.#dataChars * 3) / 4);
  }

  /** The bytes of the complete groups of `text` and what was carried; none once a problem is found. */
  push(text: string): Uint8Array {
    if (this.#head !== undefined) {
      this.#head += text;
      if (this.#head.length < MAX_PREFIX_CHARS) return NO_BYTES;
      return this.#startBody();
    }
    return this.#body(text);
  }

  /** The last bytes; sets `problem` for truncated or wrongly padded text. */
  end(): Uint8Array {
    const bytes = this.#head !== undefined ? this.#startBody() : NO_BYTES;
    if (this.#problem !== undefined) return NO_BYTES;
    const total = this.#dataChars + this.#padding;
    if (total % 4 !== 0) {
      this.#fail(
        `its length (${total} characters without line breaks) is not a multiple of 4: the text is truncated or ${
          this.#padding === 0 ? 'the "=" padding is missing' : "wrongly padded"
        }`,
      );
      return NO_BYTES;
    }
    if (this.#padding > 0) {
      const unusedBits = this.#padding === 1 ? 0b11 : 0b1111;
      if ((this.#lastSextet & unusedBits) !== 0) {
        this.#fail("the bits before the padding are not zero (not the canonical encoding)");
        return NO_BYTES;
      }
      const tail = this.#decode(this.#carry + "=".repeat(this.#padding));
      this.#carry = "";
      return concat(bytes, tail);
    }
    return bytes;
  }

  #startBody(): Uint8Array {
    const head = this.#head ?? "";
    this.#head = undefined;
    if (!head.startsWith("data:")) return this.#body(head);
    const match = DATA_URL_PREFIX.exec(head.slice(0, MAX_PREFIX_CHARS));
    if (!match) {
      this.#problem =
        "is not valid base64: its data: prefix is not of the form data:<type>/<subtype>;base64,";
      this.#dataChars = head.length;
      return NO_BYTES;
    }
    this.#position = match[0].length;
    return this.#body(head.slice(match[0].length));
  }

  #body(text: string): Uint8Array {
    if (this.#problem !== undefined) {
      this.#dataChars += text.replace(LINE_BREAKS, "").length;
      return NO_BYTES;
    }
    const start = this.#position;
    this.#position += text.length;
    if (this.#padding === 0 && PLAIN.test(text)) {
      const data = text.replace(LINE_BREAKS, "");
      if (data.length === 0) return NO_BYTES;
      this.#dataChars += data.length;
      this.#lastSextet = sextet(data.charCodeAt(data.length - 1));
      const pending = this.#carry + data;
      const whole = pending.length - (pending.length % 4);
      this.#carry = pending.slice(whole);
      return whole === 0 ? NO_BYTES : this.#decode(pending.slice(0, whole));
    }
    // Slow path: padding, or a character that is not plain base64 (to find and explain it).
    let data = "";
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      const at = start + i;
      if (code === CR || code === LF) continue;
      const value = sextet(code);
      if (value >= 0) {
        if (this.#padding > 0)
          return this.#failAfter(text, i, `character at position ${at} follows the padding "="`);
        data += text[i];
        this.#dataChars += 1;
        this.#lastSextet = value;
      } else if (code === PAD) {
        this.#padding += 1;
        if (this.#padding > 2)
          return this.#failAfter(text, i, `more than two padding characters "=" at position ${at}`);
      } else if (code === 45 || code === 95) {
        return this.#failAfter(
          text,
          i,
          `${describeCharacter(code)} at position ${at} belongs to base64url; use standard base64 (+ and /)`,
        );
      } else if (code === 32 || code === 9) {
        return this.#failAfter(
          text,
          i,
          `${describeCharacter(code)} at position ${at}; only line breaks may separate the characters`,
        );
      } else {
        return this.#failAfter(
          text,
          i,
          `${describeCharacter(code)} at position ${at} is not in the base64 alphabet`,
        );
      }
    }
    const pending = this.#carry + data;
    // Once padded, the last group waits for end() (it is decoded with its "=").
    const whole =
      this.#padding > 0 ? pending.length - (pending.length % 4 || 4) : pending.length - (pending.length % 4);
    const cut = Math.max(0, whole);
    this.#carry = pending.slice(cut);
    return cut === 0 ? NO_BYTES : this.#decode(pending.slice(0, cut));
  }

  #failAfter(text: string, index: number, reason: string): Uint8Array {
    this.#fail(reason);
    // The rest still counts toward the size estimate.
    this.#dataChars += text.slice(index).replace(LINE_BREAKS, "").replaceAll("=", "").length;
    return NO_BYTES;
  }

  #fail(reason: string): void {
    this.#problem = `is not valid base64: ${reason}`;
    this.#carry = "";
  }

  #decode(groups: string): Uint8Array {
    const buffer = Buffer.from(groups, "base64");
    this.#decodedBytes += buffer.byteLength;
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.byteLength === 0) return b;
  if (b.byteLength === 0) return a;
  return Buffer.concat([a, b]);
}
