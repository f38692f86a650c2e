import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { filterPattern, isValidFilter, isValidSubject, subjectMatches } from "./subjects.js";

/** Reference: NATS wildcards as a regular expression over the whole subject (the in-process bus's claim uses it in SQL). */
function reference(filter: string, subject: string): boolean {
  return new RegExp(filterPattern(filter)).test(subject);
}

const token = fc.constantFrom("petri", "identity", "experiments", "a", "b", "claimed", "v1");
const subject = fc.array(token, { minLength: 1, maxLength: 5 }).map((t) => t.join("."));
const filter = fc
  .tuple(fc.array(fc.oneof(token, fc.constant("*")), { minLength: 0, maxLength: 5 }), fc.boolean())
  .filter(([tokens, tail]) => tokens.length > 0 || tail)
  .map(([tokens, tail]) => [...tokens, ...(tail ? [">"] : [])].join("."));

describe("subjectMatches", () => {
  it("agrees with a regular-expression reference on random filters and subjects", () => {
    fc.assert(
      fc.property(filter, subject, (f, s) => {
        expect(subjectMatches(f, s)).toBe(reference(f, s));
      }),
      { numRuns: 5_000 },
    );
  });

  it("matches a subject built from the filter by replacing wildcards", () => {
    fc.assert(
      fc.property(filter, fc.array(token, { minLength: 1, maxLength: 3 }), token, (f, tail, one) => {
        const s = f
          .split(".")
          .map((t) => (t === "*" ? one : t === ">" ? tail.join(".") : t))
          .join(".");
        expect(subjectMatches(f, s)).toBe(true);
      }),
    );
  });

  it("follows the NATS rules on known cases", () => {
    expect(subjectMatches("petri.identity.>", "petri.identity.account_registered")).toBe(true);
    expect(subjectMatches("petri.identity.>", "petri.identity")).toBe(false); // > needs one or more tokens
    expect(subjectMatches("petri.*.claimed", "petri.experiments.claimed")).toBe(true);
    expect(subjectMatches("petri.*.claimed", "petri.experiments.v1.claimed")).toBe(false);
    expect(subjectMatches("petri.*", "petri")).toBe(false);
    expect(subjectMatches(">", "anything.at.all")).toBe(true);
    expect(subjectMatches("a.b", "a.b")).toBe(true);
    expect(subjectMatches("a.b", "a.b.c")).toBe(false);
    expect(subjectMatches("a.>.c", "a.b.c")).toBe(false); // > only counts as the last token
  });

  it("validates subjects and filters", () => {
    expect(isValidSubject("petri.identity.account_registered")).toBe(true);
    expect(isValidSubject("petri.*.x")).toBe(false);
    expect(isValidSubject("petri..x")).toBe(false);
    expect(isValidSubject("")).toBe(false);
    expect(isValidFilter("petri.*.>")).toBe(true);
    expect(isValidFilter("petri.>.x")).toBe(false);
    expect(isValidFilter("petri.a*")).toBe(false);
  });
});
