import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { decodeBase64, decodeBase64Head, measureBase64 } from "./base64.js";

/** Wraps base64 text in lines of `width` characters, as `base64` (LF) and MIME (CRLF) do. */
function wrap(text: string, width: number, newline: string): string {
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += width) lines.push(text.slice(i, i + width));
  return lines.join(newline);
}

describe("measureBase64", () => {
  it.each([
    ["", 0],
    ["QQ==", 1],
    ["QUI=", 2],
    ["QUJD", 3],
    ["QUJDRA==", 4],
    ["dGltZSxvZDYwMAowLDAuMDUKMSwwLjA5Cg==", 25],
  ])("sizes %j as %i bytes", (text, bytes) => {
    expect(measureBase64(text)).toEqual({ start: 0, decodedBytes: bytes });
  });

  it("tolerates line breaks (LF and CRLF) and a data: prefix", () => {
    const encoded = Buffer.alloc(200, 7).toString("base64");
    expect(measureBase64(wrap(encoded, 76, "\n"))).toEqual({ start: 0, decodedBytes: 200 });
    expect(measureBase64(`${wrap(encoded, 76, "\r\n")}\r\n`)).toEqual({ start: 0, decodedBytes: 200 });
    const prefixed = `data:text/csv;charset=utf-8;base64,${encoded}`;
    expect(measureBase64(prefixed)).toEqual({ start: 35, decodedBytes: 200 });
  });

  it.each([
    ["QQ!=", /character "!" at position 2 is not in the base64 alphabet/],
    ["QUJD\u00e9A==", /character "é" at position 4/],
    ["QUJD\u0000A==", /control character U\+0000 at position 4/],
    ["-_8=", /base64url; use standard base64/],
    ["QUJD QUJD", /a space at position 4; only line breaks/],
    ["QUJD\tQUJD", /control character U\+0009 at position 4; only line breaks/],
    ["QQ", /not a multiple of 4: the text is truncated or the "=" padding is missing/],
    ["QUJDR", /not a multiple of 4: the text is truncated/],
    ["QUJDRA=", /not a multiple of 4: the text is truncated or wrongly padded/],
    ["Q===", /more than two padding characters/],
    ["QQ==QQ==", /character at position 4 follows the padding/],
    ["=QUJ", /follows the padding/],
    ["QR==", /not the canonical encoding/],
    ["QUJ=", /not the canonical encoding/],
    ["data:text/plain,QUJD", /data: prefix is not of the form/],
    ["data:;base64,QUJD", /data: prefix is not of the form/],
  ])("refuses %j", (text, problem) => {
    const measure = measureBase64(text);
    expect(measure.problem).toMatch(problem);
  });

  it("reports only the first problem but still estimates the size of invalid text", () => {
    const measure = measureBase64(`${"A".repeat(4000)}!!`);
    expect(measure.problem).toMatch(/position 4000/);
    expect(measure.decodedBytes).toBe(3001); // 3/4 of the 4002 characters that are not line breaks or "="
  });

  it("round-trips any bytes, wrapped or not, with the same length it predicted", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        fc.constantFrom("", "\n", "\r\n"),
        fc.boolean(),
        (bytes, newline, prefixed) => {
          const encoded = Buffer.from(bytes).toString("base64");
          const body = newline === "" ? encoded : wrap(encoded, 76, newline);
          const text = prefixed ? `data:application/octet-stream;base64,${body}` : body;
          const measure = measureBase64(text);
          expect(measure.problem).toBeUndefined();
          expect(measure.decodedBytes).toBe(bytes.length);
          expect(Buffer.from(decodeBase64(text, measure)).equals(Buffer.from(bytes))).toBe(true);
          expect(
            Buffer.from(decodeBase64Head(text, measure, 12)).equals(Buffer.from(bytes.subarray(0, 12))),
          ).toBe(true);
        },
      ),
    );
  });
});

describe("decodeBase64", () => {
  it("refuses text the measure found invalid", () => {
    expect(() => decodeBase64("QQ!=", measureBase64("QQ!="))).toThrow(/measureBase64 accepted/);
  });

  it("returns a plain Uint8Array view of exactly the decoded bytes", () => {
    const bytes = decodeBase64("QUJD", measureBase64("QUJD"));
    expect(Buffer.isBuffer(bytes)).toBe(false);
    expect([...bytes]).toEqual([65, 66, 67]);
  });
});
