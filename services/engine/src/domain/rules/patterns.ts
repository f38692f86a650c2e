/**
 * Pattern rules over the normalised text (micro already written "u", dashes "-"): numbers with
 * units (concentrations, amounts, durations, temperatures, pH, sizes), culture-collection ids,
 * plasmid names, protein substitutions, code-named compounds and stated thresholds.
 *
 * Every pattern is linear (no nested quantifiers over the same characters), so a 12,000-char
 * input is scanned in well under a millisecond per pattern.
 */

export interface Quantity {
  value: number;
  /** Canonical unit: "µg/mL", "mg/L", "nM", "µM", "%", "h", "min", "°C" … */
  unit: string;
  /** The text it was read from (a list or range shares one text). */
  text: string;
  start: number;
  end: number;
  /** Quantities read from one list or range share a group number. */
  group: number;
}

// A number: thousands with commas ("10,000"), decimals with a point, optionally in scientific
// form ("5 x 10^5", "5e5"). Decimal commas ("0,5") are not read: "1,5" would be ambiguous with
// a list, and an ambiguous list pattern backtracks exponentially on long digit runs.
export const NUMBER_CORE = String.raw`(?:\d{1,3}(?:,\d{3})+(?![\d,])|\d+(?:\.\d+)?|\.\d+)(?:\s?[x×*]\s?10\^?-?\d{1,2}|e-?\d{1,2})?`;
// Not inside a word or code ("PX-17", "HEK293", "pET-28a").
const NUMBER_START = String.raw`(?<![A-Za-z0-9.^])(?<![A-Za-z0-9]-)(?<!(?:ATCC|DSMZ?|NCTC|CCUG|BAA-|no\.|#|[Cc]lone|[Ss]train|[Pp]assage|[Ff]ig\.|[Ff]igure|PMID|pH|[Ss]tep|[Ll]ot|[Bb]atch)\s?)`;
const NUMBER = NUMBER_START + NUMBER_CORE;
// List items are separated by ", " (with the space, so "10,000" stays one number), "and", "or",
// "to", "down to", "-", ";" or "/".
const LIST_SEPARATOR = String.raw`(?:,\s(?:and\s|or\s)?|\s(?:and|or|to|down to|up to|through)\s|\s?-\s?|;\s?|\s?\/\s?)`;
const NUMBER_LIST = `${NUMBER}(?:${LIST_SEPARATOR}${NUMBER_CORE}){0,20}`;

/** Parses one number as written ("10,000", "0.5", "5 x 10^5", "5e5"). */
export function parseNumber(raw: string): number | null {
  const text = raw.trim();
  const scientific = /^(.*?)\s?(?:[x×*]\s?10\^?(-?\d{1,2})|e(-?\d{1,2}))$/i.exec(text);
  const mantissaText = scientific ? (scientific[1] as string) : text;
  const exponent = scientific ? Number(scientific[2] ?? scientific[3]) : 0;
  const mantissa = /^\d{1,3}(?:,\d{3})+$/.test(mantissaText)
    ? Number(mantissaText.replace(/,/g, ""))
    : Number(mantissaText);
  if (!Number.isFinite(mantissa)) return null;
  const value = mantissa * 10 ** exponent;
  return Number.isFinite(value) ? Number(value.toPrecision(12)) : null;
}

function splitNumbers(list: string): number[] {
  const numbers = list.match(new RegExp(NUMBER_CORE, "g")) ?? [];
  return numbers.map(parseNumber).filter((n): n is number => n !== null);
}

interface UnitRule {
  /** Regex source of the unit (after the number list). */
  source: string;
  flags: string;
  canonical: (match: string) => string | null;
}

function canonicalMassPerVolume(unit: string): string | null {
  const m = /^(ng|ug|mcg|mg|g)\s?(?:\/\s?|\s)(ul|ml|dl|l)/i.exec(unit);
  if (!m) return null;
  const mass = (m[1] as string).toLowerCase().replace("mcg", "ug").replace("u", "µ");
  const volume = (m[2] as string).toLowerCase();
  const volumeText = volume === "l" ? "L" : `${volume[0] === "u" ? "µ" : volume[0]}L`;
  return `${mass}/${volumeText}`;
}

const MOLAR_WORDS: Record<string, string> = {
  picomolar: "pM",
  nanomolar: "nM",
  micromolar: "µM",
  millimolar: "mM",
  molar: "M",
};

function canonicalMolar(unit: string): string | null {
  const word = MOLAR_WORDS[unit.toLowerCase()];
  if (word) return word;
  const m = /^([pnum]?)M$/.exec(unit) ?? /^([pnum]?)mol\/L$/i.exec(unit);
  if (!m) return /^UM$/.test(unit) ? "µM" : null;
  const prefix = (m[1] as string).replace("u", "µ");
  return `${prefix}M`;
}

const CONCENTRATION_UNITS: UnitRule[] = [
  {
    source: String.raw`(?:ng|ug|mcg|mg|g)\s?(?:\/\s?(?:ul|ml|dl|l)|\s(?:ul|ml|dl|l)\s?\^?-1)(?![A-Za-z])`,
    flags: "i",
    canonical: canonicalMassPerVolume,
  },
  { source: String.raw`(?:[pnum]?M|UM|[pnum]?mol\/L)(?![A-Za-z0-9])`, flags: "", canonical: canonicalMolar },
  {
    source: String.raw`(?:pico|nano|micro|milli)?molar(?![A-Za-z])`,
    flags: "i",
    canonical: (u) => MOLAR_WORDS[u.toLowerCase()] ?? null,
  },
  {
    source: String.raw`%(?:\s?\((?:w\/v|v\/v|w\/w)\)|\s?(?:w\/v|v\/v|w\/w)(?![A-Za-z]))?`,
    flags: "",
    canonical: () => "%",
  },
];

const AMOUNT_UNITS: UnitRule[] = [
  {
    source: String.raw`(?:ng|ug|mcg|mg)(?:\s?(?:\/|per)\s?(?:dis[ck]|well))?(?![A-Za-z\/])(?!\s?\/)(?!\s(?:ul|ml|l)\s?\^?-1)`,
    flags: "i",
    canonical: (u) =>
      u
        .toLowerCase()
        .replace(/\s?(?:\/|per)\s?(?:dis[ck]|well)$/, "")
        .replace("mcg", "ug")
        .replace("u", "µ"),
  },
];

const DURATION_UNITS: UnitRule[] = [
  {
    source: String.raw`-?\s?(?:h|hr|hrs|hours?|min|mins|minutes?|d|days?|wk|wks|weeks?|s|sec|secs|seconds?)(?![A-Za-z0-9])`,
    flags: "i",
    canonical: (u) => {
      const unit = u.replace(/^-?\s?/, "").toLowerCase();
      if (/^(h|hr|hrs|hours?)$/.test(unit)) return "h";
      if (/^(min|mins|minutes?)$/.test(unit)) return "min";
      if (/^(d|days?)$/.test(unit)) return "d";
      if (/^(wk|wks|weeks?)$/.test(unit)) return "wk";
      return "s";
    },
  },
];

const TEMPERATURE_UNITS: UnitRule[] = [
  {
    source: String.raw`(?:\s?(?:°|º)\s?|\s?deg(?:rees?)?\.?\s?|o(?=C))?(?:C|F|Celsius|Fahrenheit)(?![A-Za-z0-9])|\s?degrees?(?!\s?[A-Za-z])`,
    flags: "",
    canonical: (u) => (/F|Fahrenheit/.test(u) ? "°F" : "°C"),
  },
];

const SIZE_UNITS: UnitRule[] = [
  {
    source: String.raw`-?\s?(?:kbp|kb|bp)(?![A-Za-z0-9])`,
    flags: "i",
    canonical: (u) => (/k/i.test(u) ? "kb" : "bp"),
  },
];

const LENGTH_UNITS: UnitRule[] = [
  { source: String.raw`\s?mm(?![A-Za-z0-9])`, flags: "", canonical: () => "mm" },
];

function compileQuantityPattern(rule: UnitRule): RegExp {
  // The list and its unit; the unit's flags apply to the whole pattern (units dominate case).
  return new RegExp(`(${NUMBER_LIST})\\s?(${rule.source})`, `g${rule.flags}`);
}

const MAX_QUANTITIES = 200;

function readQuantities(text: string, rules: UnitRule[], firstGroup: number, signed = false): Quantity[] {
  const out: Quantity[] = [];
  let group = firstGroup;
  for (const rule of rules) {
    const pattern = compileQuantityPattern(rule);
    for (let m = pattern.exec(text); m !== null && out.length < MAX_QUANTITIES; m = pattern.exec(text)) {
      const unit = rule.canonical((m[2] as string).trim());
      if (!unit) continue;
      const negative = signed && text[m.index - 1] === "-" && !/[A-Za-z0-9]/.test(text[m.index - 2] ?? "");
      const values = splitNumbers(m[1] as string).map((v) => (negative ? -v : v));
      group += 1;
      for (const value of values) {
        out.push({ value, unit, text: m[0].trim(), start: m.index, end: m.index + m[0].length, group });
      }
    }
  }
  return out.sort((a, b) => a.start - b.start || a.group - b.group);
}

export const readConcentrations = (text: string): Quantity[] => readQuantities(text, CONCENTRATION_UNITS, 0);
export const readAmounts = (text: string): Quantity[] => readQuantities(text, AMOUNT_UNITS, 1000);
export const readDurations = (text: string): Quantity[] => readQuantities(text, DURATION_UNITS, 2000);
export const readTemperatures = (text: string): Quantity[] =>
  readQuantities(text, TEMPERATURE_UNITS, 3000, true);
export const readSizes = (text: string): Quantity[] => readQuantities(text, SIZE_UNITS, 4000);
export const readLengths = (text: string): Quantity[] => readQuantities(text, LENGTH_UNITS, 5000);

/** "pH 5, 6 and 7" -> [5, 6, 7]. */
export function readPhValues(text: string): Quantity[] {
  const out: Quantity[] = [];
  const pattern = new RegExp(
    `(?<![A-Za-z])pH\\s?(?:of\\s|=\\s?)?(${NUMBER_CORE}(?:${LIST_SEPARATOR}(?:pH\\s?)?${NUMBER_CORE}){0,10})`,
    "g",
  );
  let group = 6000;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    group += 1;
    for (const value of splitNumbers((m[1] as string).replace(/pH/g, ""))) {
      if (value >= 0 && value <= 14)
        out.push({ value, unit: "pH", text: m[0], start: m.index, end: m.index + m[0].length, group });
    }
  }
  return out;
}

// Culture-collection ids -----------------------------------------------------------------------

export interface CollectionId {
  /** Canonical form, e.g. "ATCC 25922", "ATCC CCL-2", "DSM 1103". */
  id: string;
  collection: "ATCC" | "DSMZ" | "NCTC";
  start: number;
  end: number;
}

export function readCollectionIds(text: string): CollectionId[] {
  const out: CollectionId[] = [];
  const atcc =
    /(?<![A-Za-z0-9])ATCC\s?(?:#|no\.?|number)?\s?[:-]?\s?((?:BAA|CCL|CRL|HTB|PTA|TIB)\s?-?\s?\d{1,6}|\d{3,6})(?![0-9])/gi;
  for (let m = atcc.exec(text); m !== null; m = atcc.exec(text)) {
    const raw = (m[1] as string).toUpperCase().replace(/\s/g, "");
    const id = /^[A-Z]/.test(raw) ? raw.replace(/^([A-Z]+)-?/, "$1-") : raw;
    out.push({ id: `ATCC ${id}`, collection: "ATCC", start: m.index, end: m.index + m[0].length });
  }
  const dsm = /(?<![A-Za-z0-9])DSMZ?\s?(\d{1,6})(?![0-9])/g;
  for (let m = dsm.exec(text); m !== null; m = dsm.exec(text)) {
    out.push({ id: `DSM ${m[1]}`, collection: "DSMZ", start: m.index, end: m.index + m[0].length });
  }
  const nctc = /(?<![A-Za-z0-9])NCTC\s?(\d{3,6})(?![0-9])/g;
  for (let m = nctc.exec(text); m !== null; m = nctc.exec(text)) {
    out.push({ id: `NCTC ${m[1]}`, collection: "NCTC", start: m.index, end: m.index + m[0].length });
  }
  return out.sort((a, b) => a.start - b.start);
}

// Plasmids -------------------------------------------------------------------------------------

/** Vector families whose names are plasmids even without the word "plasmid" nearby. */
const PLASMID_FAMILIES =
  /^p(?:UC|ET|cDNA|GEX|BR|ACYC|LKO|Lenti|LV|MAL|GL|EGFP|mCherry|X\d|SpCas9|BAD|SB|RS|YES|CMV|Bluescript|BS|GEM|KD|CP|MD|ENTR|DONR|DEST|LJM|MSCV|BABE|TRE|CAG|AAV|JET|CR|TOPO|BBR|TrcHis|Trc|TXB|TYB|COLD|Cold|Duet|RSF|CDF|BAC|CC1|NL|Nano)/;
const NOT_PLASMIDS =
  /^p(?:H\d*|Ka|Kb|Ki|Kd|IC50|EC50|GI50|CO2|O2|M|mol|g|ptd|Ser\d*|Thr\d*|Tyr\d*|DNA|RNA|STAT\d*|ERK\d*|AKT\d*|Akt\d*|S6|H2AX|EGFR|MLC\d*|JNK\d*|Rb|MEK\d*|CREB|p38)$/;
const PLASMID_CONTEXT =
  /\b(?:plasmids?|vectors?|constructs?|clones?|backbones?|minipreps?|inserts?|cloned|subcloned)\b/i;

export interface PlasmidMention {
  name: string;
  start: number;
  end: number;
}

export function readPlasmids(text: string): PlasmidMention[] {
  const out: PlasmidMention[] = [];
  const pattern =
    /(?<![A-Za-z0-9-])p(?:[A-Z][A-Za-z0-9]*|c[A-Z][A-Za-z0-9]*)(?:[.\-_][A-Za-z0-9]+){0,4}(?:\((?:\+|-|DE3)\))?/g;
  const context = PLASMID_CONTEXT.test(text);
  const seen = new Set<string>();
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const name = m[0].replace(/[.\-_]+$/, "");
    if (NOT_PLASMIDS.test(name) || name.length < 4 || seen.has(name)) continue;
    const family = PLASMID_FAMILIES.test(name);
    if (!family && !(context && /\d/.test(name))) continue;
    seen.add(name);
    out.push({ name, start: m.index, end: m.index + name.length });
  }
  return out;
}

// Protein substitutions ("V600E", "D614G", "c.1799T>A") ---------------------------------------

export function readMutations(text: string): { name: string; start: number; end: number }[] {
  const out: { name: string; start: number; end: number }[] = [];
  const protein =
    /(?<![A-Za-z0-9])([ACDEFGHIKLMNPQRSTVWY])([1-9]\d{0,3})([ACDEFGHIKLMNPQRSTVWY*])(?![A-Za-z0-9])/g;
  for (let m = protein.exec(text); m !== null; m = protein.exec(text)) {
    if (m[1] === m[3]) continue;
    out.push({ name: m[0], start: m.index, end: m.index + m[0].length });
  }
  const coding = /(?<![A-Za-z0-9])c\.\d{1,6}[ACGT]>[ACGT](?![A-Za-z0-9])/g;
  for (let m = coding.exec(text); m !== null; m = coding.exec(text)) {
    out.push({ name: m[0], start: m.index, end: m.index + m[0].length });
  }
  return out.sort((a, b) => a.start - b.start);
}

// Code-named and introduced compounds ---------------------------------------------------------

export interface NamedCompound {
  name: string;
  start: number;
  end: number;
  /** "introduced" when a word such as "compound" or "inhibitor" announces it. */
  how: "introduced" | "code" | "extract";
}

const INTRODUCERS = String.raw`(?:compounds?|cpd\.?|inhibitors?|molecules?|small[- ]molecules?|drugs?|drug candidates?|candidates?|leads?|analogu?es?|derivatives?|peptides?|agents?|test articles?|antibiotics?|antimicrobials?|antifungals?|ligands?|probes?|coatings?|formulations?|nanoparticles?)`;
// A name after an introducer: a code ("PX-17", "XYZ-123", "ABC123", "7b") or a capitalised word.
const INTRODUCED_NAME = String.raw`((?:[A-Z][A-Za-z]{0,5}[-]?\d{1,6}[A-Za-z]?(?:-[A-Za-z0-9]{1,4})?)|(?:\d{1,4}[a-z]?)(?![A-Za-z0-9%.,])(?!\s?(?:[pnuµm]?M\b|[nuµm]?g\b|[nuµm]?g\/|%|h\b|hr|min|d\b|days?|hours?|weeks?|°|x\b|fold|mm\b|times|cells|wells|concentrations|doses|points))|(?:[A-Z]{2,6}-[A-Za-z0-9]{1,8}))`;
const CODE = /(?<![A-Za-z0-9-])([A-Z]{2,5}-\d{1,6}[A-Za-z]?)(?![A-Za-z0-9-])/g;
/** Code-shaped tokens that are not compounds (interleukins, CD markers, biosafety, standards …). */
const NOT_COMPOUND_CODES =
  /^(?:IL|CD|BSL|ATCC|COVID|SARS|HIV|IC|EC|GI|CC|LD|ED|ISO|RPMI|DSM|NCTC|CCUG|BAA|CCL|CRL|HTB|QV|OD|UV|KPC|NDM|OXA|TEM|SHV|CTX|VIM|IMP|MMP|COX|PDE|HDAC|CDK|JAK|PARP|SIRT|MAO|DPP|PLK|GSK|FLT|HEK|MCF|PC|DU|HT|HL|THP|MV|MOLM|MDA|SK|BT|OVCAR|PANC|DLD|BEAS|IMR|MRC|WI|CHO|COS|BV|EL|MC|CT|LLC|NIH|RAW|HUH|CACO|SAOS|MG|USA|PAO|PA|TOP|BL|DH|MDR|GLUT|PD|HER|TNF|IFN|TGF|HIF|VEGF|BCL|ABC|ATP|ADP|NAD|NADH|NADPH|HPLC|LC|MS|NMR|PCR|FDA|EMA|CLSI|EUCAST|MIQE|GMP|GLP|RNA|DNA|LB|TB|SDS|DMSO|PBS|HBSS|FBS|BSA|OECD|ICH|TSA|NTC|CFU|NSC|ID|USP|EP|WHO|MIC|MBC|QC|RT|ELISA|FACS|LPS|TMP|SMX|ZOI|AST|SOP|RIN|NA|HCT|CACO|SW|LNCAP|HEP|ERK|STAT|AKT|MEK|BRAF|KRAS|EGFR|ALK|BTK|MET|GST|ALP|ACE|NEP|LDH|IDO)$/;

export function readNamedCompounds(text: string): NamedCompound[] {
  const out: NamedCompound[] = [];
  const introduced = new RegExp(
    `\\b${INTRODUCERS}\\s(?:called\\s|named\\s|coded\\s)?${INTRODUCED_NAME}`,
    "gi",
  );
  for (let m = introduced.exec(text); m !== null; m = introduced.exec(text)) {
    const raw = m[1] as string;
    // Introduced names are case-significant: the introducer may be any case, the name not.
    const exact = new RegExp(`^${INTRODUCED_NAME}$`).exec(raw);
    if (!exact) continue;
    const prefix = /^[A-Za-z]+/.exec(raw)?.[0].toUpperCase() ?? "";
    if (prefix && NOT_COMPOUND_CODES.test(prefix)) continue;
    const numeric = /^\d/.test(raw);
    const name = numeric ? `compound ${raw}` : raw;
    const start = m.index + m[0].length - raw.length;
    out.push({ name, start, end: start + raw.length, how: "introduced" });
  }
  CODE.lastIndex = 0;
  for (let m = CODE.exec(text); m !== null; m = CODE.exec(text)) {
    const name = m[1] as string;
    const prefix = name.split("-")[0] as string;
    if (NOT_COMPOUND_CODES.test(prefix)) continue;
    out.push({ name, start: m.index, end: m.index + name.length, how: "code" });
  }
  const extract =
    /(?<![A-Za-z])((?:[A-Z][a-z]+\s[a-z]{3,}|[A-Za-z]{3,}(?:\s[a-z]{3,})?)\s(?:essential oil|extract|leaf extract|crude extract|oil))(?![A-Za-z])/g;
  for (let m = extract.exec(text); m !== null; m = extract.exec(text)) {
    const name = (m[1] as string).replace(/^(?:the|a|an|of|with|using|and|or|its|an?\s)\s?/i, "");
    if (
      /^(?:the|a|an|and|or|of|with|using|for|from|in|this|that|our|their)\s/i.test(name) ||
      name.length > 80
    )
      continue;
    out.push({ name, start: m.index, end: m.index + (m[1] as string).length, how: "extract" });
  }
  return out.sort((a, b) => a.start - b.start);
}

// Unknown enzymes named by their family noun ("XYZ kinase", "Abc1 protease") ----------------

const ENZYME_NOUNS = String.raw`(?:kinase|protease|proteinase|peptidase|phosphatase|esterase|lipase|reductase|oxidase|dehydrogenase|synthase|synthetase|transferase|methyltransferase|acetyltransferase|hydrolase|deacetylase|demethylase|ligase|polymerase|helicase|nuclease|isomerase|decarboxylase|carboxylase|mutase|aminotransferase|hydroxylase|oxygenase|dioxygenase|monooxygenase|glycosidase|lactamase|carbapenemase|sulfatase|amidase|deaminase|epimerase|aldolase)`;

export function readUnknownEnzymes(text: string): { name: string; start: number; end: number }[] {
  const out: { name: string; start: number; end: number }[] = [];
  const pattern = new RegExp(
    `(?<![A-Za-z0-9-])((?:[A-Z][A-Za-z0-9]{1,12}|[a-z]{2,4}[A-Z][A-Za-z0-9]{0,8})(?:[-/][A-Za-z0-9]{1,6})?\\s${ENZYME_NOUNS}s?)(?![A-Za-z])`,
    "g",
  );
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const name = m[1] as string;
    if (
      /^(?:The|A|An|This|That|Our|Each|Any|Some|Which|Its|Their|Protein|Enzyme|Human|Recombinant|Purified)\s/.test(
        name,
      )
    )
      continue;
    out.push({ name, start: m.index, end: m.index + name.length });
  }
  return out;
}

export const canonicalConcentrationUnit = (unit: string): string | null =>
  canonicalMassPerVolume(unit) ?? canonicalMolar(unit) ?? (unit === "%" ? "%" : null);
