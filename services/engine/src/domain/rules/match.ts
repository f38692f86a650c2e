/**
 * Vocabulary matching: finds every vocabulary term in a normalised text.
 *
 * Rules (decisions, tested in extract.test.ts):
 * - Word boundaries: a term never matches inside a longer word or code ("MIC" is not found in
 *   "microbial", "HEK293" not in "HEK293T").
 * - Separators are optional: "MCF-7", "MCF7" and "MCF 7" are one term; "E. coli", "E.coli" and
 *   "E coli" too. Between a term's letters and digits a space or hyphen may be added
 *   ("HEK 293").
 * - Case: terms of three characters or fewer and the entry's `exactCase` terms match only as
 *   written; everything else in any case ("hela" finds HeLa). A gene symbol also matches in
 *   its mouse spelling ("Il6" for IL6).
 * - A plural "s" is accepted after a case-insensitive term that ends in a letter ("HUVECs").
 * - Overlaps: the longest match wins ("RPMI 8226" the cell line over "RPMI" the medium); two
 *   categories may share the very same span (EGFR the gene and EGFR the kinase).
 * - Typos: an unmatched word of 7+ letters within edit distance 1 (2 from 10 letters) of a
 *   single-word term matches it as a fuzzy match ("ciprofloxacn"); the trace reports it.
 */
import { normaliseText } from "./normalise.js";
import {
  ANTIMICROBIALS,
  CELL_LINES,
  DISTINCTIVE_STRAINS,
  ENZYMES,
  GENES,
  MEDIA,
  ORGANISMS,
  REFERENCE_COMPOUNDS,
  type Antimicrobial,
  type CellLine,
  type Enzyme,
  type Gene,
  type Medium,
  type Organism,
  type OrganismStrain,
  type ReferenceCompound,
  type VocabularyTerm,
} from "./vocabulary/index.js";

export interface StrainEntry {
  organism: Organism;
  strain: OrganismStrain;
  distinctive: boolean;
}

export type VocabularyHit =
  | { category: "organism"; entry: Organism }
  | { category: "strain"; entry: StrainEntry }
  | { category: "antimicrobial"; entry: Antimicrobial }
  | { category: "compound"; entry: ReferenceCompound }
  | { category: "cell_line"; entry: CellLine }
  | { category: "gene"; entry: Gene }
  | { category: "enzyme"; entry: Enzyme }
  | { category: "medium"; entry: Medium };

export type Category = VocabularyHit["category"];

export type VocabularyMatch = VocabularyHit & {
  start: number;
  end: number;
  /** The text as found. */
  text: string;
  /** The vocabulary spelling it was matched to, when the match was fuzzy. */
  correctedTo?: string;
};

interface CompiledTerm {
  hit: VocabularyHit;
  term: string;
  /** Lower-case letters and digits of the term, to skip terms absent from a text cheaply. */
  squashed: string;
  caseSensitive: boolean;
  pattern: RegExp;
}

const LOOSE_SEPARATOR = "[\\s\\-_.,/:()'^+]{0,3}";
const TIGHT_SEPARATOR = "[\\s\\-]?";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Letters-or-digits runs of a term with what separates them ("HEK293" -> HEK|293). */
function termParts(term: string): { parts: string[]; gaps: boolean[] } {
  const parts: string[] = [];
  const gaps: boolean[] = [];
  const re = /[A-Za-z]+|[0-9]+/g;
  let last = -1;
  for (let m = re.exec(term); m !== null; m = re.exec(term)) {
    if (last >= 0) gaps.push(m.index > last);
    parts.push(m[0]);
    last = m.index + m[0].length;
  }
  return { parts, gaps };
}

export function squash(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function compileTerm(
  hit: VocabularyHit,
  rawTerm: string,
  exactCase: ReadonlySet<string>,
): CompiledTerm | null {
  const term = normaliseText(rawTerm);
  const { parts, gaps } = termParts(term);
  if (parts.length === 0) return null;
  const squashed = squash(term);
  const caseSensitive = squashed.length <= 3 || exactCase.has(rawTerm) || exactCase.has(term);
  let source = escapeRegExp(parts[0] as string);
  parts.slice(1).forEach((part, index) => {
    source += (gaps[index] ? LOOSE_SEPARATOR : TIGHT_SEPARATOR) + escapeRegExp(part);
  });
  const endsWithLetter = /[A-Za-z]$/.test(parts[parts.length - 1] as string);
  if (!caseSensitive && endsWithLetter && squashed.length >= 4) source += "(?:e?s)?";
  const pattern = new RegExp(`(?<![A-Za-z0-9])${source}(?![A-Za-z0-9])`, caseSensitive ? "g" : "gi");
  return { hit, term, squashed, caseSensitive, pattern };
}

function termsOf(entry: VocabularyTerm): string[] {
  return [entry.name, ...entry.synonyms];
}

/** The mouse spelling of an all-capitals gene symbol: IL6 -> Il6, GAPDH -> Gapdh. */
function mouseSpelling(symbol: string): string | null {
  if (!/^[A-Z][A-Z0-9]+$/.test(symbol)) return null;
  const mouse = symbol[0] + symbol.slice(1).toLowerCase();
  return mouse === symbol ? null : mouse;
}

function compileEntries(): CompiledTerm[] {
  const compiled: CompiledTerm[] = [];
  const add = (hit: VocabularyHit, terms: readonly string[], exactCase: readonly string[] = []) => {
    const exact = new Set(exactCase);
    const seen = new Set<string>();
    for (const term of terms) {
      if (seen.has(term)) continue;
      seen.add(term);
      const one = compileTerm(hit, term, exact);
      if (one) compiled.push(one);
    }
  };
  for (const entry of ORGANISMS) {
    add({ category: "organism", entry }, termsOf(entry), entry.exactCase);
    for (const strain of entry.strains ?? []) {
      // Culture-collection ids are found by their own pattern (extract.ts), known or not.
      if (strain.atcc) continue;
      const strainEntry: StrainEntry = {
        organism: entry,
        strain,
        distinctive: DISTINCTIVE_STRAINS.has(strain.designation),
      };
      add(
        { category: "strain", entry: strainEntry },
        [strain.designation, ...(strain.synonyms ?? [])],
        [strain.designation, ...(strain.synonyms ?? [])],
      );
    }
  }
  for (const entry of ANTIMICROBIALS)
    add({ category: "antimicrobial", entry }, termsOf(entry), entry.exactCase);
  for (const entry of REFERENCE_COMPOUNDS)
    add({ category: "compound", entry }, termsOf(entry), entry.exactCase);
  for (const entry of CELL_LINES) add({ category: "cell_line", entry }, termsOf(entry), entry.exactCase);
  for (const entry of GENES) {
    const mouse = mouseSpelling(entry.name);
    const terms = mouse ? [...termsOf(entry), mouse] : termsOf(entry);
    add({ category: "gene", entry }, terms, mouse ? [...(entry.exactCase ?? []), mouse] : entry.exactCase);
  }
  for (const entry of ENZYMES) add({ category: "enzyme", entry }, termsOf(entry), entry.exactCase);
  for (const entry of MEDIA) add({ category: "medium", entry }, termsOf(entry), entry.exactCase);
  return compiled;
}

let compiledTerms: CompiledTerm[] | undefined;

function allTerms(): CompiledTerm[] {
  compiledTerms ??= compileEntries();
  return compiledTerms;
}

/** Reference compounds that are usually buffer components, not test articles. */
export const BUFFER_REAGENTS: ReadonlySet<string> = new Set(["EDTA", "Triton X-100"]);

function sameHit(a: VocabularyMatch, b: VocabularyMatch): boolean {
  return a.category === b.category && a.entry === b.entry;
}

/** Longest match wins; the same span may stay in two categories (see the file header). */
export function resolveOverlaps(matches: readonly VocabularyMatch[]): VocabularyMatch[] {
  const byLength = [...matches].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: VocabularyMatch[] = [];
  for (const match of byLength) {
    const clash = kept.some((other) => {
      const overlaps = match.start < other.end && other.start < match.end;
      if (!overlaps) return false;
      const sameSpan = match.start === other.start && match.end === other.end;
      return !(sameSpan && match.category !== other.category) || sameHit(match, other);
    });
    if (!clash) kept.push(match);
  }
  return kept.sort((a, b) => a.start - b.start || a.category.localeCompare(b.category));
}

/** Restricted Damerau-Levenshtein distance, or `limit + 1` as soon as it exceeds `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    const row: number[] = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const previous = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (i > 0 && rowMin > limit) return limit + 1;
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

const MAX_MATCHES = 400;
const MAX_FUZZY_WORDS = 300;

/** Single-word, case-insensitive terms of 7+ letters, by length, for typo matching. */
let fuzzyIndex: Map<number, CompiledTerm[]> | undefined;

function fuzzyTerms(): Map<number, CompiledTerm[]> {
  if (fuzzyIndex) return fuzzyIndex;
  fuzzyIndex = new Map();
  for (const term of allTerms()) {
    if (term.caseSensitive || !/^[a-z]{7,}$/i.test(term.term)) continue;
    const list = fuzzyIndex.get(term.squashed.length) ?? [];
    list.push(term);
    fuzzyIndex.set(term.squashed.length, list);
  }
  return fuzzyIndex;
}

/** Words the typo matcher must leave alone (ordinary words one edit from a term). */
const NOT_TYPOS = new Set(["protein", "proteins", "peptide", "peptides", "enzymes"]);

function fuzzyMatches(text: string, exact: readonly VocabularyMatch[]): VocabularyMatch[] {
  const out: VocabularyMatch[] = [];
  const index = fuzzyTerms();
  const covered = (start: number, end: number) => exact.some((m) => start < m.end && m.start < end);
  const words = /(?<![A-Za-z0-9-])[A-Za-z]{7,}(?![A-Za-z0-9])/g;
  let checked = 0;
  for (let m = words.exec(text); m !== null && checked < MAX_FUZZY_WORDS; m = words.exec(text)) {
    const word = m[0].toLowerCase();
    if (NOT_TYPOS.has(word) || covered(m.index, m.index + m[0].length)) continue;
    checked += 1;
    const limit = word.length >= 10 ? 2 : 1;
    let best: { term: CompiledTerm; distance: number } | undefined;
    for (let length = word.length - limit; length <= word.length + limit; length += 1) {
      for (const term of index.get(length) ?? []) {
        const distance = editDistance(word, term.squashed, limit);
        if (distance === 0) continue;
        if (distance <= limit && (!best || distance < best.distance)) best = { term, distance };
      }
    }
    if (best) {
      out.push({
        ...best.term.hit,
        start: m.index,
        end: m.index + m[0].length,
        text: m[0],
        correctedTo: best.term.term,
      } as VocabularyMatch);
    }
  }
  return out;
}

/**
 * Every vocabulary match in a normalised text, overlaps resolved, in text order. Strains that
 * do not identify their species on their own count only within 40 characters after it.
 */
export function matchVocabulary(text: string): VocabularyMatch[] {
  const squashedText = squash(text);
  const found: VocabularyMatch[] = [];
  for (const term of allTerms()) {
    if (!squashedText.includes(term.squashed)) continue;
    term.pattern.lastIndex = 0;
    for (let m = term.pattern.exec(text); m !== null; m = term.pattern.exec(text)) {
      found.push({ ...term.hit, start: m.index, end: m.index + m[0].length, text: m[0] } as VocabularyMatch);
      if (found.length > MAX_MATCHES * 4) break;
    }
  }
  const exact = resolveOverlaps(found);
  const withTypos = resolveOverlaps([...exact, ...fuzzyMatches(text, exact)]);
  const organisms = withTypos.filter((m) => m.category === "organism");
  return withTypos
    .filter((m) => {
      if (m.category !== "strain" || m.entry.distinctive) return true;
      const species = m.entry.organism;
      return organisms.some((o) => o.entry === species && o.end <= m.start && m.start - o.end <= 40);
    })
    .slice(0, MAX_MATCHES);
}
