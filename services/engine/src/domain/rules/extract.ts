/**
 * Entity extraction: what a normalised query names (organisms and strains, compounds, cell
 * lines, genes, enzymes, plasmids, media) and what it quantifies (concentrations, amounts,
 * durations, temperatures, pH, sizes). Pure and deterministic; lists keep the order in which
 * things first appear in the text.
 */
import type { RecognisedEntities } from "../generation.js";
import { organismsFrom } from "./extract-organisms.js";
import { BUFFER_REAGENTS, matchVocabulary, type VocabularyMatch } from "./match.js";
import {
  readAmounts,
  readCollectionIds,
  readConcentrations,
  readDurations,
  readLengths,
  readMutations,
  readNamedCompounds,
  readPhValues,
  readPlasmids,
  readSizes,
  readTemperatures,
  readUnknownEnzymes,
  type CollectionId,
  type PlasmidMention,
  type Quantity,
} from "./patterns.js";
import { overlaps, pushUnique } from "./spans.js";
import type {
  Antimicrobial,
  CellLine,
  Enzyme,
  Gene,
  Medium,
  Organism,
  OrganismStrain,
  ReferenceCompound,
} from "./vocabulary/index.js";

export interface OrganismMention {
  name: string;
  /** Absent for a species recognised only by its genus ("Bacillus cereus"). */
  entry?: Organism;
  strain?: string;
  strainInfo?: OrganismStrain;
  collection?: CollectionId["collection"];
  start: number;
}

export type CompoundSource = "antimicrobial" | "reference" | "introduced" | "code" | "extract";

export interface CompoundMention {
  name: string;
  source: CompoundSource;
  antimicrobial?: Antimicrobial;
  reference?: ReferenceCompound;
  /** Named as a control or comparator rather than as the thing tested. */
  control: boolean;
  start: number;
}

export interface Mention<T> {
  name: string;
  entry?: T;
  start: number;
}

export interface Correction {
  found: string;
  readAs: string;
}

export interface Extraction {
  organisms: OrganismMention[];
  compounds: CompoundMention[];
  cellLines: Mention<CellLine>[];
  genes: Mention<Gene>[];
  enzymes: Mention<Enzyme>[];
  plasmids: PlasmidMention[];
  media: Mention<Medium>[];
  primers: string[];
  mutations: string[];
  concentrations: Quantity[];
  amounts: Quantity[];
  durations: Quantity[];
  temperatures: Quantity[];
  phValues: Quantity[];
  sizes: Quantity[];
  lengths: Quantity[];
  collectionIds: CollectionId[];
  /** Words read as a vocabulary term despite a typo. */
  corrections: Correction[];
}

// Culture-supplement antibiotics ("pen-strep") are medium components, never test articles.
const MASKED = /pen(?:icillin)?\s?[-/&]\s?strep(?:tomycin)?|\bP\/S\b/gi;

const CONTROL_BEFORE =
  /(?:positive control|negative control|reference (?:drug|antibiotic|compound|inhibitor|agent)|comparator|compared (?:with|to)|versus|vs\.?|benchmark(?:ed)?(?: against)?|alongside|controls?(?: of| such as| like)?:?|as well as the reference)\s?(?:the\s|a\s)?(?:[A-Za-z-]+\s)?$/i;
const CONTROL_AFTER =
  /^\s?(?:\(|,)?\s?(?:[^.;,()]{0,25}?\bas )?(?:an? |the )?(?:positive |reference |comparator |benchmark |QC )?(?:control|comparator|reference|benchmark|standard)\b/i;
// "LPS-primed cells", "primed with LPS": a stimulus of the system, not the thing tested.
const STIMULUS_AFTER = /^-?(?:primed|stimulated|induced|challenged|activated|pretreated)\b/i;
const STIMULUS_BEFORE = /\b(?:primed|stimulated|challenged|activated) (?:with|by) (?:the )?$/i;

const UNIVERSAL_PRIMERS =
  /(?<![A-Za-z0-9])(M13[- ]?(?:F|R|fwd|rev|forward|reverse)(?:\s?\(-\d{2}\))?|M13(?:\(-\d{2}\))?\s(?:forward|reverse)|T7\s?term(?:inator)?|T7(?:\s?promoter)?|SP6|T3|CMV[- ]?(?:F|fwd|forward)|BGH[- ]?(?:R|rev|reverse)|SV40[- ]?pA[- ]?R|LKO\.1\s?5'|U6[- ]?(?:F|fwd|forward|promoter)|pGEX\s?[35]'|EGFP[- ]?[CN]|WPRE[- ]?R)(?![A-Za-z0-9])/g;

const UNKNOWN_GENE_BEFORE =
  /(?<![A-Za-z0-9-])([A-Z][A-Z0-9]{1,9}(?:-[A-Z0-9]{1,3})?|[A-Z][a-z]{1,2}[0-9][A-Za-z0-9]{0,5})\s(?:mRNA|transcripts?|expression|gene|promoter activity)\b/g;
const UNKNOWN_GENE_AFTER =
  /\b(?:expression|transcription|knockdown|transcript levels?|mRNA levels?|mRNA) of (?:the )?(?:gene )?([A-Z][A-Z0-9]{1,9}(?:-[A-Z0-9]{1,3})?)(?![A-Za-z0-9])/g;
// Bacterial gene nomenclature: three lower-case letters and a capital (katG, ahpC, rpoS).
const BACTERIAL_GENE = /(?<![A-Za-z0-9-])[a-z]{3}[A-Z][0-9]?(?![A-Za-z0-9])/g;
const GENE_CONTEXT = /\bexpress|\bmRNA|\btranscri|\bq-?PCR|\bgenes?\b/i;
const NOT_GENES =
  /^(?:RNA|DNA|PCR|QPCR|MIC|MBC|IC50|EC50|ATCC|DMSO|CFU|OD600|OD|QC|RT|NTC|BSL\d?|USA|THE|AND|HIGH|LOW|FOLD|CT|CQ|UV|LPS|PMA|MRSA|ESKAPE|CRISPR|SIRNA|SHRNA|MRNA|CDNA|ELISA|FACS|WT|KO|OE|HIF|NF|TLR|ROS|ATP|GTP|NAD)$/;

function isControl(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 60), start);
  const after = text.slice(end, end + 40);
  return (
    CONTROL_BEFORE.test(before) ||
    CONTROL_AFTER.test(after) ||
    STIMULUS_AFTER.test(after) ||
    STIMULUS_BEFORE.test(before)
  );
}

/** Percentages that state an effect ("50% reduction", "by 30%") are not concentrations. */
function isConcentration(quantity: Quantity, text: string): boolean {
  if (quantity.unit !== "%") return true;
  const after = text.slice(quantity.end, quantity.end + 24);
  const before = text.slice(Math.max(0, quantity.start - 16), quantity.start);
  if (
    /^\s?(?:faster|slower|higher|lower|more|less|fewer|reduction|decrease|increase|inhibition|kill|killing|loss|drop|identity|coverage|of\b|viab|surviv|confluen|efficien|power|confidence|CI\b|probability|eradication|dispersal|disruption|decline|lysis|hemolysis|haemolysis|or (?:more|less|greater|higher|lower))/i.test(
      after,
    )
  )
    return false;
  return !/(?:\bby|at least|more than|less than|>=?|<=?|≥|≤)\s?$/i.test(before);
}

export function extractEntities(text: string): Extraction {
  const masks = spansOf(MASKED, text);
  const matches = matchVocabulary(text).filter(
    (m) => !((m.category === "antimicrobial" || m.category === "compound") && overlaps(m, masks)),
  );
  const collectionIds = readCollectionIds(text);
  const primerSpans = spansOf(UNIVERSAL_PRIMERS, text).map((span) => ({
    ...span,
    name: text.slice(span.start, span.end),
  }));
  const claimed = [...matches, ...collectionIds, ...masks, ...primerSpans];
  const { cellLines, genes, enzymes, media } = vocabularyMentions(matches);
  addUnknownGenes(text, claimed, genes);
  if (enzymes.length === 0) addUnknownEnzymes(text, matches, enzymes);

  // A construct is often named after its insert ("pcDNA3.1-EGFR"): a gene or enzyme name inside
  // a plasmid name does not make it something else.
  const plasmids = readPlasmids(text).filter(
    (p) =>
      !overlaps(
        p,
        matches.filter((m) => m.category !== "gene" && m.category !== "enzyme"),
      ),
  );
  const notGeneOrEnzyme = claimed.filter(
    (c) => !("category" in c) || (c.category !== "gene" && c.category !== "enzyme"),
  );
  const mutations = readMutations(text)
    .filter((m) => !overlaps(m, [...notGeneOrEnzyme, ...plasmids]))
    .map((m) => m.name);

  return {
    organisms: organismsFrom(text, matches, collectionIds),
    compounds: compoundsFrom(text, matches, claimed),
    cellLines,
    genes,
    enzymes,
    plasmids,
    media,
    primers: [...new Set(primerSpans.map((p) => p.name))],
    mutations: [...new Set(mutations)],
    concentrations: readConcentrations(text).filter((q) => isConcentration(q, text)),
    amounts: readAmounts(text),
    durations: readDurations(text),
    temperatures: readTemperatures(text),
    phValues: readPhValues(text),
    sizes: readSizes(text),
    lengths: readLengths(text),
    collectionIds,
    corrections: matches
      .filter((m) => m.correctedTo !== undefined)
      .map((m) => ({ found: m.text, readAs: m.correctedTo as string })),
  };
}

/** Every match of a global pattern, as spans. */
function spansOf(pattern: RegExp, text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    spans.push({ start: m.index, end: m.index + m[0].length });
  }
  return spans;
}

/** Vocabulary drugs and reference compounds, then code-named and introduced compounds. */
function compoundsFrom(
  text: string,
  matches: readonly VocabularyMatch[],
  claimed: readonly { start: number; end: number }[],
): CompoundMention[] {
  const compounds: CompoundMention[] = [];
  for (const match of matches) {
    if (match.category === "antimicrobial") {
      pushUnique(compounds, {
        name: match.entry.name,
        source: "antimicrobial",
        antimicrobial: match.entry,
        control: isControl(text, match.start, match.end),
        start: match.start,
      });
    } else if (match.category === "compound") {
      pushUnique(compounds, {
        name: match.entry.name,
        source: "reference",
        reference: match.entry,
        control: isControl(text, match.start, match.end),
        start: match.start,
      });
    }
  }
  for (const named of readNamedCompounds(text)) {
    if (overlaps(named, claimed)) continue;
    pushUnique(compounds, {
      name: named.name,
      source: named.how,
      control: isControl(text, named.start, named.end),
      start: named.start,
    });
  }
  return compounds.sort((a, b) => a.start - b.start);
}

function vocabularyMentions(matches: readonly VocabularyMatch[]): {
  cellLines: Mention<CellLine>[];
  genes: Mention<Gene>[];
  enzymes: Mention<Enzyme>[];
  media: Mention<Medium>[];
} {
  const cellLines: Mention<CellLine>[] = [];
  const genes: Mention<Gene>[] = [];
  const enzymes: Mention<Enzyme>[] = [];
  const media: Mention<Medium>[] = [];
  for (const match of matches) {
    if (match.category === "cell_line")
      pushUnique(cellLines, { name: match.entry.name, entry: match.entry, start: match.start });
    if (match.category === "gene")
      pushUnique(genes, { name: match.entry.name, entry: match.entry, start: match.start });
    if (match.category === "enzyme")
      pushUnique(enzymes, { name: match.entry.name, entry: match.entry, start: match.start });
    if (match.category === "medium")
      pushUnique(media, { name: match.entry.name, entry: match.entry, start: match.start });
  }
  return { cellLines, genes, enzymes, media };
}

/** Gene symbols next to an expression word, and bacterial gene names in an expression context. */
function addUnknownGenes(
  text: string,
  claimed: readonly { start: number; end: number }[],
  genes: Mention<Gene>[],
): void {
  for (const pattern of [UNKNOWN_GENE_BEFORE, UNKNOWN_GENE_AFTER]) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const symbol = m[1] as string;
      const start = m.index + m[0].indexOf(symbol);
      const span = { start, end: start + symbol.length };
      if (NOT_GENES.test(symbol.toUpperCase()) || overlaps(span, claimed)) continue;
      pushUnique(genes, { name: symbol, start });
    }
  }
  if (GENE_CONTEXT.test(text)) {
    BACTERIAL_GENE.lastIndex = 0;
    for (let m = BACTERIAL_GENE.exec(text); m !== null; m = BACTERIAL_GENE.exec(text)) {
      const span = { start: m.index, end: m.index + m[0].length };
      if (!overlaps(span, claimed)) pushUnique(genes, { name: m[0], start: m.index });
    }
  }
  genes.sort((a, b) => a.start - b.start);
}

/** Enzymes named only by their family noun ("a serine protease"), when no known enzyme is. */
function addUnknownEnzymes(
  text: string,
  matches: readonly VocabularyMatch[],
  enzymes: Mention<Enzyme>[],
): void {
  for (const unknown of readUnknownEnzymes(text)) {
    if (
      overlaps(
        unknown,
        matches.filter((m) => m.category !== "enzyme" && m.category !== "gene"),
      )
    )
      continue;
    pushUnique(enzymes, { name: unknown.name, start: unknown.start });
  }
}

/** Adds the entities of the context (background text) after those of the query. */
export function mergeContext(query: Extraction, context: Extraction): Extraction {
  const merge = <T extends { name: string }>(a: T[], b: T[]): T[] => {
    const out = [...a];
    for (const item of b) pushUnique(out, item);
    return out;
  };
  return {
    ...query,
    organisms: merge(query.organisms, context.organisms),
    compounds: merge(query.compounds, context.compounds),
    cellLines: merge(query.cellLines, context.cellLines),
    genes: merge(query.genes, context.genes),
    enzymes: merge(query.enzymes, context.enzymes),
    plasmids: merge(query.plasmids, context.plasmids),
    media: merge(query.media, context.media),
    corrections: [...query.corrections, ...context.corrections],
  };
}

/** The test article: the first compound not named as a control, code names before known drugs. */
export function testCompound(extraction: Extraction): CompoundMention | undefined {
  const candidates = extraction.compounds.filter((c) => !c.control && !BUFFER_REAGENTS.has(c.name));
  return (
    candidates.find((c) => c.source === "introduced" || c.source === "code") ??
    candidates[0] ??
    extraction.compounds.find((c) => !BUFFER_REAGENTS.has(c.name))
  );
}

function publicQuantity(q: Quantity): { value: number; unit: string; text: string } {
  return { value: q.value, unit: q.unit, text: q.text };
}

export function toRecognisedEntities(extraction: Extraction): RecognisedEntities {
  return {
    organisms: extraction.organisms.map((o) => o.name),
    compounds: extraction.compounds.map((c) => c.name),
    cell_lines: extraction.cellLines.map((c) => c.name),
    genes: extraction.genes.map((g) => g.name),
    enzymes: extraction.enzymes.map((e) => e.name),
    plasmids: extraction.plasmids.map((p) => p.name),
    concentrations: extraction.concentrations.map(publicQuantity),
    durations: extraction.durations.map(publicQuantity),
  };
}
