// Failure conditions: a keyword heuristic over the operator notes and summary.
import type { FailureCondition, FailureConditionResult } from "./types.js";
import { str } from "./values.js";

const STOPWORDS = new Set(
  (
    "the a an and or of to in on at by for with from into than then that this these those is are was were be been " +
    "being not no any all some more less most least if when while which who whom whose what where there their " +
    "them they it its as per via such only also both each other same very can could should would may might must " +
    "will shall does did done has have had observed shows show showing result results experiment sample samples " +
    "value values condition conditions data significant significantly"
  ).split(" "),
);

/**
 * Keywords of a failure condition: lower-cased words of at least 4 letters (letters, digits, '-'),
 * not purely numeric, not in a small stop list. Keyword heuristic: a failure condition is
 * "possibly_triggered" when at least half of its keywords (and at least one; at least two when it has
 * four or more) occur as words in the operator notes or summary. No stemming, no negation handling:
 * it only points staff at conditions worth reading, and never decides the verdict alone.
 */
export function failureKeywords(text: string): string[] {
  const words =
    text
      .toLowerCase()
      .normalize("NFKC")
      .match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? [];
  const out: string[] = [];
  for (const w of words) {
    const t = w.replace(/-+$/, "");
    if (t.length < 4 || /^[\d.-]+$/.test(t) || STOPWORDS.has(t) || out.includes(t)) continue;
    out.push(t);
  }
  return out;
}

export function evaluateFailure(fc: FailureCondition, haystack: Set<string>): FailureConditionResult {
  const condition = str(fc?.condition);
  const interpretation = str(fc?.interpretation);
  const keywords = failureKeywords(condition);
  const matchedKeywords = keywords.filter((k) => haystack.has(k));
  const needed = Math.max(keywords.length >= 4 ? 2 : 1, Math.ceil(keywords.length / 2));
  const triggered = keywords.length > 0 && matchedKeywords.length >= needed;
  return {
    condition,
    interpretation,
    status: triggered ? "possibly_triggered" : "not_detected",
    matchedKeywords,
    keywords,
  };
}
