/**
 * Thresholds, fold changes and percentage effects stated in the query ("IC50 below 1 uM",
 * "MIC <= 4 ug/mL", "at least 2-fold", "zone of at least 15 mm"), over the normalised text.
 */
import { NUMBER_CORE, canonicalConcentrationUnit, parseNumber } from "./patterns.js";

export type Comparator = "lt" | "lte" | "gt" | "gte";

export interface Threshold {
  comparator: Comparator;
  value: number;
  unit: string;
  text: string;
}

const LESS = String.raw`(?:<=|=<|≤|<|below|under|less than|lower than|at most|no more than|no higher than|not exceeding|not above|up to|max(?:imum)?(?: of)?|or (?:less|lower|below))`;
const MORE = String.raw`(?:>=|=>|≥|>|above|over|more than|greater than|higher than|at least|no less than|exceeding|min(?:imum)?(?: of)?)`;
const FILLER = String.raw`(?:(?:of|values?|is|are|=|:|should be|will be|would be|to be|with an?|an?|~|approximately|approx\.?|around|about|roughly|near|expected|predicted|be|that is)\s?){0,4}`;

function comparatorOf(word: string | undefined, fallback: Comparator): Comparator {
  if (!word) return fallback;
  const w = word.toLowerCase();
  if (/^(<=|=<|≤|at most|no more than|no higher than|not exceeding|not above|up to|max)/.test(w))
    return "lte";
  if (/^(<|below|under|less than|lower than)/.test(w)) return "lt";
  if (/^(>=|=>|≥|at least|no less than|min)/.test(w)) return "gte";
  if (/or (less|lower|below)/.test(w)) return "lte";
  if (/or (more|higher|above)/.test(w)) return "gte";
  return "gt";
}

/**
 * A threshold stated after a metric ("IC50 below 1 uM", "MIC <= 4 ug/mL", "MIC of 2 ug/ml or
 * lower"). `units` is the regex source of acceptable units; unit-less numbers take `defaultUnit`.
 */
export function readMetricThreshold(
  text: string,
  metric: string,
  defaultComparator: Comparator,
  canonicalUnit: (unit: string) => string | null,
  defaultUnit?: string,
): Threshold | null {
  const unitSource = String.raw`(?:ng|ug|mcg|mg|g)\s?\/\s?(?:ul|ml|l)|[pnum]?M|(?:pico|nano|micro|milli)molar|%`;
  const tail = `\\s?(${NUMBER_CORE})\\s?(${unitSource})?(?![A-Za-z0-9])(\\s?or (?:less|lower|below|more|higher|above))?`;
  // Strict: only filler words between the metric and the number, comparator optional.
  // Loose: up to 60 characters without digits, but then a comparator is required.
  const strict = new RegExp(`(?<![A-Za-z0-9/])${metric}\\s?${FILLER}(${LESS}|${MORE})?${tail}`, "i");
  const loose = new RegExp(`(?<![A-Za-z0-9/])${metric}[^\\d;]{0,60}?(${LESS}|${MORE})${tail}`, "i");
  const m = strict.exec(text) ?? loose.exec(text);
  if (!m) return null;
  const value = parseNumber(m[2] as string);
  if (value === null || value <= 0) return null;
  const rawUnit = m[3];
  const unit = rawUnit ? canonicalUnit(rawUnit.trim()) : (defaultUnit ?? null);
  if (!unit) return null;
  const comparator = comparatorOf(m[1] ?? m[4]?.trim(), defaultComparator);
  return { comparator, value, unit, text: m[0].trim() };
}

/** Sub-micromolar and single-digit-micro/nanomolar potency claims. */
export function readPotencyWords(text: string): Threshold | null {
  const sub = /\bsub-?\s?(micro|nano)molar\b/i.exec(text);
  if (sub)
    return { comparator: "lt", value: 1, unit: /micro/i.test(sub[1] as string) ? "µM" : "nM", text: sub[0] };
  const single = /\b(?:single|low)[- ]digit (micro|nano)molar\b/i.exec(text);
  if (single)
    return {
      comparator: "lt",
      value: 10,
      unit: /micro/i.test(single[1] as string) ? "µM" : "nM",
      text: single[0],
    };
  return null;
}

/** "at least 2-fold", ">= 3x", "doubles" -> the fold change and its sign if stated. */
export function readFoldChange(text: string): { fold: number; text: string } | null {
  const m = new RegExp(`(${NUMBER_CORE})\\s?-?\\s?(?:fold|x)(?![A-Za-z0-9])`, "i").exec(text);
  if (m) {
    const fold = parseNumber(m[1] as string);
    if (fold !== null && fold > 1 && fold <= 10_000) return { fold, text: m[0] };
  }
  const doubled = /\b(doubl(?:e|es|ed|ing)|halv(?:e|es|ed|ing))\b/i.exec(text);
  if (doubled) return { fold: 2, text: doubled[0] };
  return null;
}

/** "by at least 50%", "50% reduction", "reduces … by 30%" -> the percentage effect. */
export function readPercentEffect(text: string): { percent: number; text: string } | null {
  const after = new RegExp(
    `\\bby\\s(?:at least\\s|>=?\\s?|≥\\s?|more than\\s|over\\s)?(${NUMBER_CORE})\\s?%`,
    "i",
  ).exec(text);
  const before = new RegExp(
    `(?:at least\\s|>=?\\s?|≥\\s?|more than\\s)?(${NUMBER_CORE})\\s?%\\s(?:reduction|decrease|inhibition|increase|kill|killing|loss|lower|less|fewer|more|higher|drop|eradication|dispersal|disruption)`,
    "i",
  ).exec(text);
  const m = after ?? before;
  if (!m) return null;
  const percent = parseNumber(m[1] as string);
  if (percent === null || percent <= 0 || percent > 100_000) return null;
  return { percent, text: m[0] };
}

/** A zone diameter stated in the query ("zone of at least 15 mm", ">= 18 mm inhibition zone"). */
export function readZoneThreshold(text: string): Threshold | null {
  const after = new RegExp(
    `(?<![A-Za-z])(?:zones?|halos?|diameters?)[^\\d;]{0,50}?(${LESS}|${MORE})?\\s?(${NUMBER_CORE})\\s?mm(?![A-Za-z0-9])`,
    "i",
  ).exec(text);
  const before = new RegExp(
    `(${LESS}|${MORE})?\\s?(${NUMBER_CORE})\\s?mm\\s(?:(?:clear|inhibition|growth[- ]free)\\s)?(?:zones?|halos?|of (?:growth )?inhibition)`,
    "i",
  ).exec(text);
  for (const m of [after, before]) {
    if (!m) continue;
    const value = parseNumber(m[2] as string);
    if (value === null || value <= 0 || value > 100) continue;
    // "6 mm disks" is the disk, not the zone.
    if (/^\s?(?:paper |filter )?dis[ck]/i.test(text.slice(m.index + m[0].length))) continue;
    return { comparator: comparatorOf(m[1], "gte"), value, unit: "mm", text: m[0].trim() };
  }
  return null;
}

/**
 * A bound on a concentration anywhere in the text ("we expect it to be ≤ 4 µg/mL"), in the
 * given canonical units: the fallback when no metric names the threshold directly.
 */
export function readBoundedConcentration(text: string, units: RegExp): Threshold | null {
  const unitSource = String.raw`(?:ng|ug|mcg|mg|g)\s?\/\s?(?:ul|ml|l)|[pnum]?M|(?:pico|nano|micro|milli)molar`;
  const pattern = new RegExp(`(${LESS}|${MORE})\\s?(${NUMBER_CORE})\\s?(${unitSource})(?![A-Za-z0-9])`, "gi");
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const unit = canonicalConcentrationUnit((m[3] as string).trim());
    const value = parseNumber(m[2] as string);
    if (!unit || !units.test(unit) || value === null || value <= 0) continue;
    // "up to 64 µg/mL" states a range, not an expected potency.
    if (/^(?:up to|max)/i.test(m[1] as string)) continue;
    return { comparator: comparatorOf(m[1], "lte"), value, unit, text: m[0].trim() };
  }
  return null;
}
