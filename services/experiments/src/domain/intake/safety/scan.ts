/**
 * Text scans over every string of a request (values and keys, ./walk.ts).
 *
 * Controlled substances — names and synonyms are compared case-insensitively on word
 * boundaries after normalising the text: Unicode compatibility form, accents removed, Greek
 * letters spelled out (Δ9 → delta 9, γ → gamma), every run of punctuation/space treated as one
 * boundary. So "Bis(2-chloroethyl) sulfide", "bis-2-chloroethyl-sulfide" and
 * "BIS(2-CHLOROETHYL)SULFIDE" all match, while "sarin" does not match inside "quasarine". A
 * multi-word synonym also matches when its words are run together ("methylphosphonyldifluoride").
 * Abbreviations (`codes`) match case-sensitively as whole words, never before "-<digits>" (so
 * "VX-770", a drug code, is not VX). CAS numbers are found in any dash style and normalised; only
 * numbers with a valid check digit count (./cas.ts).
 *
 * Human subjects — see findHumanSubjectPhrases.
 */
import { findCasNumbers } from "../cas.js";
import type { PathSegment } from "../paths.js";
import { CONTROLLED_SUBSTANCES, type ControlledSubstance } from "./controlled-substances.js";
import { collectStrings, type FoundString } from "./walk.js";

const GREEK: Record<string, string> = {
  α: "alpha",
  β: "beta",
  γ: "gamma",
  δ: "delta",
  ω: "omega",
  μ: "u",
};

export function normalizeTokens(text: string): string[] {
  const lowered = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[α-ω]/g, (ch) => ` ${GREEK[ch] ?? ""} `);
  return lowered.split(/[^a-z0-9]+/).filter((token) => token !== "");
}

interface CompiledSynonym {
  entry: ControlledSubstance;
  synonym: string;
  squashed: string;
  singleToken: boolean;
}

interface CompiledCode {
  entry: ControlledSubstance;
  code: string;
  pattern: RegExp;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const SYNONYMS: CompiledSynonym[] = CONTROLLED_SUBSTANCES.flatMap((entry) =>
  [entry.name, ...entry.synonyms].map((synonym) => {
    const tokens = normalizeTokens(synonym);
    return { entry, synonym, squashed: tokens.join(""), singleToken: tokens.length === 1 };
  }),
).filter((s) => s.squashed.length >= 4);

/** Single-token synonyms by their token, and the others: a string is looked up token by token. */
const SINGLE_TOKEN = new Map<string, number[]>();
const MULTI_TOKEN: number[] = [];
SYNONYMS.forEach((compiled, index) => {
  if (!compiled.singleToken) MULTI_TOKEN.push(index);
  else SINGLE_TOKEN.set(compiled.squashed, [...(SINGLE_TOKEN.get(compiled.squashed) ?? []), index]);
});

const CODES: CompiledCode[] = CONTROLLED_SUBSTANCES.flatMap((entry) =>
  (entry.codes ?? []).map((code) => ({
    entry,
    code,
    pattern: new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(code)}(?![A-Za-z0-9])(?!\\s?[-‐‑–]\\s?\\d)`),
  })),
);

const BY_CAS = new Map<string, ControlledSubstance>(
  CONTROLLED_SUBSTANCES.filter((e) => e.cas !== undefined).map((e) => [e.cas as string, e]),
);

export interface ControlledHit {
  substance: ControlledSubstance;
  path: PathSegment[];
  /** What matched: a synonym, an abbreviation or a CAS number. */
  matched: string;
}

/** A string's tokens as every synonym is compared with them, worked out once per string. */
interface TokenizedText {
  tokens: ReadonlySet<string>;
  /** The tokens run together. */
  squashed: string;
  /** Offsets in `squashed` where a token starts or ends. */
  boundaries: ReadonlySet<number>;
}

function tokenize(text: string): TokenizedText {
  const tokens = normalizeTokens(text);
  const boundaries = new Set<number>([0]);
  let offset = 0;
  for (const token of tokens) {
    offset += token.length;
    boundaries.add(offset);
  }
  return { tokens: new Set(tokens), squashed: tokens.join(""), boundaries };
}

/** A multi-word synonym found on token boundaries, its words spaced or run together. */
function multiTokenMatches(text: TokenizedText, compiled: CompiledSynonym): boolean {
  let from = text.squashed.indexOf(compiled.squashed);
  while (from !== -1) {
    if (text.boundaries.has(from) && text.boundaries.has(from + compiled.squashed.length)) return true;
    from = text.squashed.indexOf(compiled.squashed, from + 1);
  }
  return false;
}

/** The synonyms the text mentions, in SYNONYMS order (which decides the synonym a hit names). */
function matchingSynonyms(text: TokenizedText): CompiledSynonym[] {
  const indexes: number[] = [];
  for (const token of text.tokens) indexes.push(...(SINGLE_TOKEN.get(token) ?? []));
  for (const index of MULTI_TOKEN) if (multiTokenMatches(text, SYNONYMS[index]!)) indexes.push(index);
  return indexes.sort((a, b) => a - b).map((index) => SYNONYMS[index]!);
}

function scanString(found: FoundString): ControlledHit[] {
  const hits: ControlledHit[] = [];
  const seen = new Set<string>();
  const add = (substance: ControlledSubstance, matched: string) => {
    if (seen.has(substance.id)) return;
    seen.add(substance.id);
    hits.push({ substance, path: found.path, matched });
  };
  for (const compiled of matchingSynonyms(tokenize(found.text))) add(compiled.entry, compiled.synonym);
  for (const compiled of CODES) {
    if (compiled.pattern.test(found.text)) add(compiled.entry, compiled.code);
  }
  for (const cas of findCasNumbers(found.text)) {
    const substance = BY_CAS.get(cas);
    if (substance) add(substance, `CAS ${cas}`);
  }
  return hits;
}

/** Every controlled-substance mention in the input, one hit per substance and string. */
export function findControlledSubstances(
  input: unknown,
  strings: FoundString[] = collectStrings(input),
): ControlledHit[] {
  return strings.flatMap(scanString);
}

// ---------------------------------------------------------------------------------------------
// Human subjects
// ---------------------------------------------------------------------------------------------

/**
 * Human-subjects heuristic (decision, tuned for few false positives):
 * - The `hypothesis` section is not scanned: it states a claim ("…reduces mortality in
 *   patients") and cites prior work; what the lab is asked to do lives in the other fields.
 * - Strong phrases flag on their own: human subjects/participants/volunteers, healthy or
 *   paediatric volunteers, study/research/trial participants, informed consent, institutional
 *   review board / IRB / ethics committee, recruiting or enrolling people, samples collected,
 *   drawn or taken from patients/participants/volunteers, administering or dosing to people.
 *   Donors are not in the list: de-identified donor material (e.g. commercial PBMCs) is
 *   human-derived material, not human-subjects research.
 * - Weak phrases flag only when compliance.human_derived_material is true: "patient(s)" (but
 *   not "patient-derived", i.e. established PDX/organoid models), "clinical samples/specimens"
 *   (not "clinical isolates", which are microbes), "clinical trial".
 * - Human cell lines (HeLa, HEK293 …) and human-derived material alone never flag; BSL-2 with
 *   human-derived material goes to staff review instead (review reason).
 */
const PEOPLE = "(?:patients?|participants?|volunteers?|subjects?|people|persons|individuals)";
const STRONG: readonly RegExp[] = [
  /\bhuman (?:research )?(?:subjects?|participants?|volunteers?)\b/,
  /\b(?:healthy|paediatric|pediatric|adult) volunteers?\b/,
  /\b(?:study|research|trial) participants?\b/,
  /\binformed consent\b/,
  /\binstitutional review board\b/,
  /\birb\b/,
  /\b(?:research )?ethics (?:committee|board)\b/,
  new RegExp(
    `\\b(?:recruit|recruits|recruited|recruiting|recruitment of|enrol|enroll|enrols|enrolls|enrolled|enrolling)(?: \\w+){0,2} ${PEOPLE}\\b`,
  ),
  new RegExp(`\\b(?:collected|drawn|taken|sampled) from (?:\\w+ ){0,2}${PEOPLE}\\b`),
  new RegExp(
    `\\b(?:administer|administered|administering|dose|dosed|dosing|give|given|inject|injected)(?: \\w+){0,3} to (?:\\w+ ){0,2}${PEOPLE}\\b`,
  ),
];
const WEAK: readonly RegExp[] = [
  /\bpatients?\b(?![- ]derived)/,
  /\bclinical (?:samples?|specimens?)\b/,
  /\bclinical trials?\b/,
];

export interface HumanSubjectsHit {
  path: PathSegment[];
  phrase: string;
  strength: "strong" | "weak";
}

function normaliseProse(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ");
}

export function findHumanSubjectPhrases(
  input: unknown,
  humanDerivedMaterial: boolean,
  strings: FoundString[] = collectStrings(input),
): HumanSubjectsHit[] {
  const hits: HumanSubjectsHit[] = [];
  for (const found of strings) {
    if (found.isKey || found.path[0] === "hypothesis") continue;
    const prose = normaliseProse(found.text);
    const strong = STRONG.map((re) => re.exec(prose)).find((m) => m !== null);
    if (strong) {
      hits.push({ path: found.path, phrase: strong[0], strength: "strong" });
      continue;
    }
    if (humanDerivedMaterial) {
      const weak = WEAK.map((re) => re.exec(prose)).find((m) => m !== null);
      if (weak) hits.push({ path: found.path, phrase: weak[0], strength: "weak" });
    }
  }
  return hits;
}
