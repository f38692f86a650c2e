import { describe, expect, it } from "vitest";
import { doiUrlPath, isWellFormedDoi, normaliseDoi } from "./doi.js";

describe("normaliseDoi", () => {
  it("strips resolver prefixes and doi:, lower-cases", () => {
    expect(normaliseDoi("https://doi.org/10.5555/PETRI-TEST.0001")).toBe("10.5555/petri-test.0001");
    expect(normaliseDoi("http://dx.doi.org/10.5555/petri-test.0001")).toBe("10.5555/petri-test.0001");
    expect(normaliseDoi("doi: 10.5555/Petri-Test.0001")).toBe("10.5555/petri-test.0001");
    expect(normaliseDoi("  10.5555/petri-test.0001  ")).toBe("10.5555/petri-test.0001");
  });

  it("drops punctuation picked up from prose, but keeps a closing parenthesis that belongs to the DOI", () => {
    expect(normaliseDoi("10.5555/petri-test.0001.,;")).toBe("10.5555/petri-test.0001");
    expect(normaliseDoi("10.5555/petri-test.0001)")).toBe("10.5555/petri-test.0001");
    expect(normaliseDoi("10.5555/petri(test)")).toBe("10.5555/petri(test)");
    expect(normaliseDoi("10.5555/petri(test))")).toBe("10.5555/petri(test)");
  });
});

describe("isWellFormedDoi", () => {
  it("accepts modern DOIs and refuses everything else", () => {
    expect(isWellFormedDoi("10.5555/petri-test.0001")).toBe(true);
    expect(isWellFormedDoi("10.55555/a;b(c)/d:e_f")).toBe(true);
    expect(isWellFormedDoi("petri-test-not-a-doi")).toBe(false);
    expect(isWellFormedDoi("10.555/too-short-prefix")).toBe(false);
    expect(isWellFormedDoi("10.5555/with space")).toBe(false);
    expect(isWellFormedDoi("10.5555/../../admin?x=1")).toBe(false);
    expect(isWellFormedDoi("10.5555/")).toBe(false);
    expect(isWellFormedDoi(`10.5555/${"a".repeat(400)}`)).toBe(false);
  });
});

describe("doiUrlPath", () => {
  it("encodes each segment and keeps the slashes", () => {
    expect(doiUrlPath("10.5555/a;b:c/d")).toBe("10.5555/a%3Bb%3Ac/d");
  });
});
