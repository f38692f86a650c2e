import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { measureBase64 } from "./base64.js";
import { Base64StreamDecoder } from "./base64-stream.js";

/** Feeds `text` cut at `cuts` (positions) and returns what the decoder made of it. */
function streamed(text: string, cuts: readonly number[]) {
  const decoder = new Base64StreamDecoder();
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    parts.push(decoder.push(text.slice(from, cut)));
    from = cut;
  }
  parts.push(decoder.push(text.slice(from)), decoder.end());
  return { bytes: Buffer.concat(parts), problem: decoder.problem, decodedBytes: decoder.decodedBytes };
}

function wrap(text: string, width: number, newline: string): string {
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += width) lines.push(text.slice(i, i + width));
  return lines.join(newline);
}

describe("Base64StreamDecoder", () => {
  it("decodes valid base64 cut anywhere to the original bytes (line breaks, data: prefix)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        fc.constantFrom("", "\n", "\r\n"),
        fc.boolean(),
        fc.integer({ min: 0, max: 2000 }),
        (bytes, newline, prefixed, seed) => {
          const encoded = Buffer.from(bytes).toString("base64");
          const body = newline === "" ? encoded : wrap(encoded, 76, newline);
          const text = prefixed ? `data:application/octet-stream;base64,${body}` : body;
          const cuts = [
            seed % (text.length + 1),
            (seed * 7) % (text.length + 1),
            (seed * 13) % (text.length + 1),
          ];
          const out = streamed(text, cuts);
          expect(out.problem).toBeUndefined();
          expect(out.bytes.equals(Buffer.from(bytes))).toBe(true);
          expect(out.decodedBytes).toBe(bytes.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("finds exactly the problems measureBase64 finds, with the same words, wherever the text is cut", () => {
    const alphabet = fc.constantFrom(
      ..."AQgw+/=\r\n-_ !\té\u0000".split(""),
      "QUJD",
      "QQ==",
      "data:",
      "data:a/b;base64,",
    );
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 30 }).map((parts) => parts.join("")),
        fc.integer({ min: 0, max: 1000 }),
        (text, seed) => {
          const out = streamed(text, [seed % (text.length + 1), (seed * 3) % (text.length + 1)]);
          expect(out.problem).toBe(measureBase64(text).problem);
          if (out.problem === undefined) {
            expect(out.bytes.equals(Buffer.from(text.slice(measureBase64(text).start), "base64"))).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ["QQ!=", /character "!" at position 2 is not in the base64 alphabet/],
    ["-_8=", /base64url; use standard base64/],
    ["QUJD QUJD", /a space at position 4; only line breaks/],
    ["QQ", /not a multiple of 4/],
    ["QR==", /bits before the padding are not zero/],
    ["QQ==QQ==", /follows the padding/],
    ["data:nonsense,QUJD", /data: prefix is not of the form/],
  ])("refuses %j a piece at a time", (text, reason) => {
    const out = streamed(
      text,
      Array.from({ length: text.length }, (_, i) => i),
    );
    expect(out.problem).toMatch(reason);
    expect(out.problem).toBe(measureBase64(text).problem);
  });

  it("keeps a size estimate of invalid text, to refuse an oversized upload", () => {
    const decoder = new Base64StreamDecoder();
    decoder.push("!".repeat(300));
    decoder.push("A".repeat(4000));
    expect(decoder.problem).toBeDefined();
    expect(decoder.decodedBytes).toBe(Math.floor((4300 * 3) / 4));
  });
});
