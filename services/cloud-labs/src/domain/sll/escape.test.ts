import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SllRenderError } from "./errors.js";
import { wlComment, wlNumber, wlString } from "./escape.js";
import { readComment, readStringLiteral, tokenize } from "../../../test/support/sll/wl-reader.js";

/** What a string is expected to read back as: lone surrogates become U+FFFD. */
const wellFormed = (s: string) =>
  s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

/** Any sequence of UTF-16 code units, lone surrogates included. */
const anyCodeUnits = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 })
  .map((codes) => String.fromCharCode(...codes));
const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  anyCodeUnits,
  fc.string({
    unit: fc.constantFrom('"', "\\", "*", "(", ")", ":", "|", "[", "]", "\n", "a", "\u202e"),
    maxLength: 30,
  }),
);

describe("wlString", () => {
  it("escapes quotes, backslashes, stars and every character outside printable ASCII", () => {
    expect(wlString('say "hi"')).toBe('"say \\"hi\\""');
    expect(wlString("a\\b")).toBe('"a\\\\b"');
    expect(wlString("*)")).toBe('"\\:002a)"');
    expect(wlString("line\nnext\ttab")).toBe('"line\\:000anext\\:0009tab"');
    expect(wlString("5 µg")).toBe('"5 \\:00b5g"');
    expect(wlString("\u202eevil")).toBe('"\\:202eevil"');
    expect(wlString("😀")).toBe('"\\|01f600"');
    expect(wlString("\ud800x")).toBe('"\\:fffdx"');
    expect(wlString("")).toBe('""');
  });

  it("reads back as the same text, for any text", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const literal = wlString(text);
        const read = readStringLiteral(literal);
        expect(read.value).toBe(wellFormed(text));
        // The literal ends exactly where it was meant to: no quote inside closes it early.
        expect(read.end).toBe(literal.length);
        expect(literal).toMatch(/^[\x20-\x7e]*$/);
      }),
      { numRuns: 1000, seed: 20261121 },
    );
  });

  it("has no unescaped quote inside, for any text", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const inside = wlString(text).slice(1, -1);
        // Drop escape pairs; what remains may not hold a quote or a lone backslash.
        const rest = inside.replace(/\\./g, "");
        expect(rest).not.toMatch(/["\\]/);
        expect(inside).not.toContain("*");
      }),
      { numRuns: 1000, seed: 7 },
    );
  });

  it("survives hostile text placed between code, as one string token", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const tokens = tokenize(`Transfer[Source -> ${wlString(text)}, Amount -> 1 Microliter]`);
        expect(tokens.filter((t) => t.kind === "string")).toEqual([
          { kind: "string", value: wellFormed(text) },
        ]);
        expect(
          tokens.filter((t) => t.kind === "symbol").map((t) => (t.kind === "symbol" ? t.name : "")),
        ).toEqual(["Transfer", "Source", "Amount", "Microliter"]);
      }),
      { numRuns: 500, seed: 11 },
    );
  });
});

describe("wlComment", () => {
  it("cannot be closed or nested by the text it carries", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const comment = wlComment(text);
        const read = readComment(comment, 0);
        expect(read.end).toBe(comment.length);
        expect(readStringLiteral(read.text.trim()).value).toBe(wellFormed(text));
        expect(comment.slice(2, -2)).not.toMatch(/\(\*|\*\)/);
      }),
      { numRuns: 1000, seed: 3 },
    );
  });
});

describe("wlNumber", () => {
  it("writes exponents the Wolfram way and refuses non-finite numbers", () => {
    expect(wlNumber(100)).toBe("100");
    expect(wlNumber(0.125)).toBe("0.125");
    expect(wlNumber(1e-7)).toBe("1*^-7");
    expect(wlNumber(1.5e21)).toBe("1.5*^21");
    expect(wlNumber(-0)).toBe("0");
    expect(() => wlNumber(Number.NaN)).toThrow(SllRenderError);
    expect(() => wlNumber(Number.POSITIVE_INFINITY)).toThrow(SllRenderError);
  });

  it("reads back as the same number", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const tokens = tokenize(wlNumber(value));
        expect(tokens).toHaveLength(1);
        expect(tokens[0]).toEqual({ kind: "number", value: Object.is(value, -0) ? 0 : value });
      }),
      { numRuns: 1000, seed: 5 },
    );
  });
});
