/**
 * validateHypothesis: POST /validate/hypothesis. Pure and deterministic.
 *
 * Validity follows the hypothesis section of the request model: statement required, 10 to 1000
 * characters; null_hypothesis at most 1000; rationale (or why_interesting) at most 2000;
 * prior_work as in the request; unknown fields rejected. Suggestions never affect validity.
 *
 * Testability heuristics (documented decisions; English text, case-insensitive):
 * 1. Measurable outcome — the statement names a quantity: a number, a unit (µM, µg/mL, %, °C,
 *    h, CFU, OD600, fold …) or a metric word (IC50, MIC, expression, viability, growth rate …).
 * 2. Direction or threshold — a direction word (increase, decrease, reduce, inhibit, higher,
 *    lower, greater, less, more, fewer, exceed, up/down-regulate …), a bound (at least, at most,
 *    above, below, more than, no more than …) or a comparison sign (< > ≤ ≥).
 * 3. Named variable and condition — a quantity with its unit (a dose, time or temperature such
 *    as "10 µM", "24 h", "37 °C") or an explicit comparison ("compared with", "versus",
 *    "relative to", "in the presence of", "treated with", "exposed to", "than untreated/control").
 * 4. Null hypothesis — missing: suggest one. Present: it should contain a negation ("not",
 *    "no", "no difference", "no effect", "unchanged", "does not" …) and share the statement's
 *    key terms: words of 3+ letters that are not stop words, a trailing "s" dropped; at least
 *    min(3, ceil(40% of the statement's key terms)) of them must appear in the null hypothesis.
 * 5. A statement phrased as a question gets a suggestion to phrase it as a claim.
 */
import type { z } from "zod";

import type { RequestError } from "../contracts.js";
import { fieldMessage, readableMessage, toRequestErrors } from "./issues.js";
import { formatPath, isPlainObject } from "./paths.js";
import { collectMissing } from "./required.js";
import { hypothesisSchema } from "./schema/common.js";

export interface HypothesisInput {
  statement?: unknown;
  null_hypothesis?: unknown;
  rationale?: unknown;
  [key: string]: unknown;
}

export interface HypothesisValidation {
  valid: boolean;
  errors: RequestError[];
  suggestions: string[];
}

const UNIT =
  /(?:\d\s*(?:[pnuµμm]?m|[pnuµμm]?mol\/l|[nuµμm]?g\/[uµμm]?l|%|°\s?c|h|hrs?|hours?|min|minutes?|days?|bp|kda|mm|fold|x)\b)|\b(?:cfu|od\s?600|ph)\b|[µμ]m\b|°c/i;
const METRIC =
  /\b(?:ic50|ec50|ki|kd|km|vmax|mic|mbc|ct|cq|expression|viability|growth|rate|yield|activity|concentration|inhibition|zone|diameter|fold[- ]change|absorbance|fluorescence|luminescence|survival|titer|titre|kill|half[- ]life|binding|affinity|proliferation|apoptosis|abundance|level|levels|count|counts|colonies|signal|intensity|efficiency|potency|cytotoxicity|lag|od600)\b/i;
const NUMBER = /\d/;
const DIRECTION =
  /\b(?:increase[sd]?|increasing|decrease[sd]?|decreasing|reduce[sd]?|reducing|reduction|lower(?:s|ed)?|higher|greater|less|lesser|more|fewer|exceed(?:s|ed)?|inhibit(?:s|ed)?|enhance[sd]?|suppress(?:es|ed)?|up-?regulate[sd]?|down-?regulate[sd]?|improve[sd]?|raise[sd]?|drop(?:s|ped)?|double[sd]?|halve[sd]?|at least|at most|above|below|than|prevent(?:s|ed)?|block(?:s|ed)?|kill(?:s|ed)?)\b|[<>≤≥]/i;
const CONDITION_QUANTITY =
  /\d+(?:\.\d+)?\s*(?:[pnuµμm]m|m|[nuµμm]g\/[uµμm]?l|%|°\s?c|h|hrs?|hours?|min|minutes?|days?)\b/i;
const COMPARISON =
  /\b(?:compared (?:with|to)|versus|vs\.?|relative to|in the presence of|in the absence of|treated with|exposed to|than (?:the )?(?:untreated|control|vehicle|wild[- ]type|baseline)|when (?:treated|exposed|grown|cultured))\b/i;
const NEGATION =
  /\b(?:not|no|none|neither|nor|never|cannot|unchanged|unaffected|equal|equivalent|same|indistinguishable)\b|n't\b|\bno (?:difference|effect|change|association|correlation)\b/i;

const STOPWORDS = new Set(
  (
    "the and for are was were will would shall should could can may might that this these those with without " +
    "from into onto than then when where which while who whom whose what have has had having been being does did " +
    "not nor but its their there they them our your his her all any each both more most less least other such only " +
    "own same very just also per via over under between among about above below after before during through " +
    "hypothesis null effect effects significant significantly compared versus relative increase increases increased " +
    "decrease decreases decreased reduce reduces reduced higher lower greater fewer difference differ differs " +
    "change changes changed show shows showed result results cause causes caused lead leads led using used use well"
  ).split(" "),
);

function keyTerms(text: string): string[] {
  const words = text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !STOPWORDS.has(w) && !/^\d+$/.test(w))
    .map((w) => (w.length > 4 && w.endsWith("s") ? w.slice(0, -1) : w));
  return [...new Set(words)];
}

/** Testability suggestions for a statement and its null hypothesis (heuristics above). */
export function hypothesisSuggestions(statement: string, nullHypothesis: string | undefined): string[] {
  const suggestions: string[] = [];
  if (statement.trim().endsWith("?")) {
    suggestions.push("Phrase the hypothesis as a testable claim, not a question.");
  }
  if (!NUMBER.test(statement) && !UNIT.test(statement) && !METRIC.test(statement)) {
    suggestions.push(
      "Name a measurable outcome: a quantity with its unit or metric (e.g. IC50 in µM, MIC in µg/mL, fold change in expression, OD600).",
    );
  }
  if (!DIRECTION.test(statement)) {
    suggestions.push(
      "State a direction or threshold: does the outcome increase or decrease, and by how much (e.g. 'reduces viability by at least 50%', 'MIC of at most 2 µg/mL')?",
    );
  }
  if (!CONDITION_QUANTITY.test(statement) && !COMPARISON.test(statement)) {
    suggestions.push(
      "Name the variable you change and its condition, e.g. 'compound X at 10 µM for 24 h compared with vehicle'.",
    );
  }
  if (nullHypothesis === undefined || nullHypothesis.trim() === "") {
    suggestions.push(
      "Add a null hypothesis that negates the statement, e.g. 'compound X at 10 µM has no effect on the viability of Y cells'.",
    );
  } else {
    if (!NEGATION.test(nullHypothesis)) {
      suggestions.push(
        "Phrase the null hypothesis as the negation of the statement ('no difference', 'no effect', 'does not …').",
      );
    }
    const terms = keyTerms(statement);
    if (terms.length > 0) {
      const nullTerms = new Set(keyTerms(nullHypothesis));
      const shared = terms.filter((t) => nullTerms.has(t));
      const needed = Math.min(3, Math.ceil(terms.length * 0.4));
      if (shared.length < needed) {
        const examples = terms.filter((t) => !nullTerms.has(t)).slice(0, 3);
        suggestions.push(
          `Make the null hypothesis about the same variables as the statement (it leaves out ${examples
            .map((t) => `"${t}"`)
            .join(", ")}).`,
        );
      }
    }
  }
  return suggestions;
}

export function validateHypothesis(input: unknown): HypothesisValidation {
  if (!isPlainObject(input)) {
    return {
      valid: false,
      errors: [
        {
          path: "",
          code: "invalid_value",
          message: "The body must be a JSON object {statement, null_hypothesis, rationale}",
        },
      ],
      suggestions: [],
    };
  }
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value !== null)
      Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
  }
  const errors: RequestError[] = [];
  const schema = hypothesisSchema as z.ZodType;
  const parsed = hypothesisSchema.safeParse(body, { error: readableMessage });
  if (!parsed.success) errors.push(...toRequestErrors(parsed.error, []));
  for (const field of collectMissing(schema, body)) {
    errors.push({
      path: formatPath(field.path),
      code: "missing_required",
      message: fieldMessage(field.path, "is required (10 to 1000 characters)"),
    });
  }
  const statement = typeof body.statement === "string" ? body.statement : undefined;
  const nullHypothesis = typeof body.null_hypothesis === "string" ? body.null_hypothesis : undefined;
  const suggestions =
    statement !== undefined && statement.trim() !== ""
      ? hypothesisSuggestions(statement, nullHypothesis)
      : [];
  return { valid: errors.length === 0, errors, suggestions };
}
