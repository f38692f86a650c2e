/**
 * User text can never become code: for plans whose every text field is arbitrary (quotes,
 * backslashes, comment closers, brackets, controls, non-ASCII...), the SLL text parses back to
 * exactly the structure of the JSON protocol, every comment is one literal, and the only symbols
 * in the text are allow-listed names.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SLL_FUNCTIONS, SLL_OPERATIONS, SLL_TYPE_HEADS, SLL_UNITS } from "./allow-list.js";
import { largestPlans, withTexts, WORST_TEXT } from "../../../test/support/sll/hostile.js";
import { planVariants } from "../../../test/support/sll/plan-variants.js";
import {
  commentLiteral,
  parseExpression,
  tokenize,
  type Plain,
} from "../../../test/support/sll/wl-reader.js";
import { toSll } from "./to-sll.js";
import type { SllProtocol, SllStep, SllValue } from "./types.js";

const wellFormed = (s: string) =>
  s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

/** The JSON protocol in the parser's plain form (what the text must read back as). */
function plainValue(value: SllValue): Plain {
  if (typeof value === "string") return { s: wellFormed(value) };
  if (typeof value === "number") return { n: value };
  if (typeof value === "boolean") return { sym: value ? "True" : "False" };
  if (Array.isArray(value)) return { list: value.map(plainValue) };
  if ("unit" in value) return { q: [value.value, value.unit] };
  if ("well" in value) return { list: [{ s: value.well }, { s: wellFormed(value.label) }] };
  if ("model" in value)
    return { call: "Model", args: [...value.model.map((sym) => ({ sym })), { s: wellFormed(value.name) }] };
  if ("object" in value) {
    return { call: "Object", args: [...value.object.map((sym) => ({ sym })), { s: wellFormed(value.name) }] };
  }
  throw new Error("unknown value shape");
}

function plainArguments(step: SllStep): Plain[] {
  const spec = SLL_OPERATIONS[step.operation];
  const inputs = Object.keys(spec.inputs).map((input) => plainValue(step[input]!));
  const options = Object.keys(spec.options)
    .filter((key) => step[key] !== undefined)
    .map((key): Plain => ({ rule: [{ sym: key }, plainValue(step[key]!)] }));
  return [...inputs, ...options];
}

function plainProtocol(protocol: SllProtocol): Plain {
  if (SLL_FUNCTIONS[protocol.function].kind === "call") {
    return { call: protocol.function, args: plainArguments(protocol.steps[0]!) };
  }
  const steps = protocol.steps.map((step): Plain => ({ call: step.operation, args: plainArguments(step) }));
  return { call: protocol.function, args: [{ list: steps }] };
}

const ALLOWED_SYMBOLS = new Set<string>([
  ...Object.keys(SLL_FUNCTIONS),
  ...Object.entries(SLL_OPERATIONS).flatMap(([name, spec]) => [name, ...Object.keys(spec.options)]),
  ...Object.keys(SLL_UNITS),
  ...SLL_TYPE_HEADS,
  "Model",
  "Object",
  "True",
  "False",
]);

function expectFaithful(protocol: SllProtocol): void {
  const tokens = tokenize(protocol.text);
  expect(parseExpression(tokens)).toEqual(plainProtocol(protocol));
  for (const token of tokens) if (token.kind === "symbol") expect(ALLOWED_SYMBOLS).toContain(token.name);
  const comments = tokens.flatMap((t) => (t.kind === "comment" ? [commentLiteral(t.text)] : []));
  const expected = [
    protocol.name,
    ...protocol.notes,
    ...protocol.steps.flatMap((step) => (step.comment === undefined ? [] : [step.comment])),
  ].map(wellFormed);
  expect(comments).toEqual(expected);
}

const hostileText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.string({
    unit: fc.constantFrom(
      '"',
      "\\",
      "*",
      "(",
      ")",
      "[",
      "]",
      "{",
      "}",
      ",",
      "->",
      ":",
      "\n",
      "\u2028",
      "x",
      " ",
    ),
    maxLength: 30,
  }),
  fc.constantFrom('"]}]; DeleteObject[All]; {"', "*) Quit[] (*", '\\"', "\\:0022", WORST_TEXT),
);

describe("SLL text is exactly the JSON protocol, whatever the user text", () => {
  const variants = planVariants();

  it("for every sample plan and variant", () => {
    for (const { plan } of variants) expectFaithful(toSll(plan));
  });

  it("for plans whose every text field is hostile", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...variants.map((v) => v.plan)),
        fc.array(hostileText, { minLength: 1, maxLength: 12 }),
        (plan, texts) => expectFaithful(toSll(withTexts(plan, texts))),
      ),
      { numRuns: 150, seed: 2026 },
    );
  });

  it("for the largest plans but the two biggest (their size is covered by bounds.test.ts)", () => {
    for (const plan of largestPlans()) {
      if (plan.experiment_type === "MIC_MBC_ASSAY" || plan.experiment_type === "QPCR_EXPRESSION") continue;
      expectFaithful(toSll(plan));
    }
  });
});
