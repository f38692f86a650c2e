import { describe, expect, it } from "vitest";
import { TITLE_MATCH_THRESHOLD, plainTitle, titleSimilarity, titleTokens } from "./title-similarity.js";

describe("plainTitle", () => {
  it("removes markup, decodes entities and collapses whitespace", () => {
    expect(plainTitle("Effect of <i>PT-0001</i> &amp; PT-0002 on\n  <sub>fixtures</sub>")).toBe(
      "Effect of PT-0001 & PT-0002 on fixtures",
    );
    expect(plainTitle("&#946;-fixture &#x3B1; &unknown;")).toBe("β-fixture α &unknown;");
  });
});

describe("titleSimilarity", () => {
  const title = "Synthetic fixture study of test compound PT-0001 in a placeholder organism";

  it("is 1 for the same title with different markup, case, accents and punctuation", () => {
    expect(
      titleSimilarity(
        `${title}.`,
        `<i>SYNTHETIC</i> fixture study of test compound PT 0001 in a placeholder organism`,
      ),
    ).toBe(1);
    expect(titleSimilarity("Étude fixture", "etude FIXTURE")).toBe(1);
  });

  it("stays above the threshold for one extra word in a long title", () => {
    const similarity = titleSimilarity(title, `${title} revisited`);
    expect(similarity).toBeGreaterThanOrEqual(TITLE_MATCH_THRESHOLD);
    expect(similarity).toBeLessThan(1);
  });

  it("falls below the threshold for another paper's title", () => {
    expect(
      titleSimilarity(title, "Unrelated placeholder title registered for another synthetic fixture"),
    ).toBeLessThan(TITLE_MATCH_THRESHOLD);
    expect(
      titleSimilarity(title, "Synthetic fixture study of test compound PT-0002 in a placeholder cell line"),
    ).toBeLessThan(TITLE_MATCH_THRESHOLD);
  });

  it("is 0 when a title has no words", () => {
    expect(titleSimilarity("", title)).toBe(0);
    expect(titleSimilarity("<i></i> ...", title)).toBe(0);
    expect(titleTokens("A a A")).toEqual(new Set(["a"]));
  });
});
