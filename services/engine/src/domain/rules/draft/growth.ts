/** Microbial growth-matrix drafts. */
import type { OrganismMention } from "../extract.js";
import { clampText, num, prose, quantity, round3, unique } from "../format.js";
import type { Quantity } from "../patterns.js";
import {
  type Criterion,
  type DraftInput,
  organismFields,
  organismLabel,
  organismSourceField,
  type SuccessCondition,
  type TypeDraft,
} from "./shared.js";

const SUPPLEMENT_WORD =
  /^\s?(?:\(w\/v\)\s|\(v\/v\)\s|w\/v\s|v\/v\s)?(?:of\s)?([A-Za-z][A-Za-z0-9-]{2,20}(?:\s(?:serum|plasma|salts?|acids?|chloride|sulfate|sulphate|phosphate|nitrate|extract|blood|glycol))?)/;
const SUPPLEMENT_BEFORE = /([A-Za-z][A-Za-z0-9-]{1,20})\s?[(:]?\s?$/;
const NOT_SUPPLEMENTS =
  /^(?:and|or|the|at|in|for|with|without|of|to|vs|versus|from|than|on|by|each|all|both|final|concentrations?|levels?|added|supplemented|medium|media|broth|agar|growth|affect|affects|rate|and\/or)$/i;
const WITH_AND_WITHOUT =
  /(?:±|\+\/-|with and without|with or without|without and with)\s?(?:[A-Za-z-]+\s)?$/i;

/** 37 °C for human pathogens, E. coli and B. subtilis; 30 °C for baker's yeast; else not guessed. */
function usualGrowthTemperature(organism: OrganismMention | undefined): number | undefined {
  const entry = organism?.entry;
  if (!entry) return undefined;
  if (entry.name === "Saccharomyces cerevisiae") return 30;
  if (
    entry.kind === "bacterium" &&
    (entry.bsl === 2 || entry.name === "Escherichia coli" || entry.name === "Bacillus subtilis")
  ) {
    return 37;
  }
  return undefined;
}

export function draftGrowth(input: DraftInput): TypeDraft {
  const { text, extraction } = input;
  const notes: string[] = [];
  const organism = extraction.organisms[0];
  const temps = unique(
    extraction.temperatures
      .filter((t) => t.unit === "°C" && t.value >= 4 && t.value <= 80)
      .map((t) => t.value),
  );
  const media = extraction.media.filter((m) => m.entry?.for !== "mammalian cells");
  const matrix = conditionMatrix(input, temps, media, notes);
  const usual = usualGrowthTemperature(organism);
  const temperature = temps.length === 1 ? temps[0] : temps.length === 0 ? usual : undefined;
  if (temps.length === 0 && usual !== undefined) {
    notes.push(
      `Incubation at ${usual} °C is the usual temperature for ${organism?.name ?? "this organism"}, a default; set yours.`,
    );
  }
  const baseMedium = media.length === 1 ? (media[0] as { name: string }).name : undefined;
  const { incubation, measurement, readSchedule } = growthSchedule(input, notes);
  const aeration = aerationFor(text, matrix, notes);
  if (!organism) notes.push("No organism was recognised: set microbial_growth.organism.");
  const org = organismLabel(organism);
  const variables = describeMatrix(matrix);
  const where = `${baseMedium ? ` in ${baseMedium}` : ""}${temperature !== undefined ? ` at ${num(temperature)} °C` : ""}`;
  const { statement, criterion, successConditions } = growthClaim(text, {
    org,
    where,
    variables,
    measurement,
    incubation,
  });
  const nullHypothesis = `The maximum specific growth rate of ${org}${where} does not differ between the levels of ${variables} (no growth-rate difference).`;
  const levels = matrix.reduce((n, m) => n * m.values.length, 1);
  return {
    title: `${organism ? organism.name : "Microbial"} growth across ${clampText(prose(matrix.map((m) => m.variable)), 120)}`,
    statement,
    nullHypothesis,
    criterion,
    sections: {
      microbial_growth: {
        ...organismFields(organism),
        ...organismSourceField(organism),
        ...(baseMedium ? { base_medium: baseMedium } : {}),
        condition_matrix: matrix,
        ...(temperature !== undefined ? { incubation_temperature_c: temperature } : {}),
        incubation_hours: incubation,
        ...(aeration ? { aeration } : {}),
        read_schedule: readSchedule,
        endpoint_only: false,
      },
    },
    successConditions,
    failureConditions: [
      {
        condition: "Blank (medium-only) wells show growth",
        interpretation: "Contamination; the lab repeats the plate.",
      },
    ],
    statisticalTest: levels > 2 ? "anova" : "t_test",
    rawDataFormats: ["CSV"],
    processedOutputs: ["GROWTH_RATE_LAG_MAXOD", "QC_SUMMARY"],
    packageLevel: "L2_INTERPRETATION",
    materials:
      organism?.strain && organism.collection === undefined
        ? [{ name: `${org} glycerol stock`, provided_by_requester: true }]
        : [],
    notes: [
      ...notes,
      ...(temps.length >= 2
        ? ["Temperature varies across the matrix, so no single incubation_temperature_c is set."]
        : []),
    ],
    searchKeywords: "growth rate",
  };
}

type Level = { value: string | number; unit?: string };
type MatrixVariable = { variable: string; values: Level[] };

/** Every variable the query varies (temperature, medium, pH, supplements, oxygen), with its levels. */
function conditionMatrix(
  input: DraftInput,
  temps: readonly number[],
  media: DraftInput["extraction"]["media"],
  notes: string[],
): MatrixVariable[] {
  const { text, extraction } = input;
  const matrix: MatrixVariable[] = [];
  if (temps.length >= 2)
    matrix.push({ variable: "temperature", values: temps.map((value) => ({ value, unit: "°C" })) });
  if (media.length >= 2) matrix.push({ variable: "medium", values: media.map((m) => ({ value: m.name })) });
  const ph = unique(extraction.phValues.map((p) => p.value));
  if (ph.length >= 2) matrix.push({ variable: "pH", values: ph.map((value) => ({ value })) });
  const bySupplement = supplementLevels(text, extraction);
  const singles: string[] = [];
  for (const [word, values] of bySupplement) {
    const distinct = unique(values.map((v) => `${v.value}|${v.unit}`)).map((k) => {
      const [value, unit] = k.split("|") as [string, string];
      return { value: Number(value), unit };
    });
    if (distinct.length >= 2 && matrix.length < 20) matrix.push({ variable: word, values: distinct });
    else if (distinct.length === 1)
      singles.push(
        `${quantity((distinct[0] as { value: number }).value, (distinct[0] as { unit: string }).unit)} ${word}`,
      );
  }
  // "0.2% glucose vs 0.2% glycerol": one level each of different supplements.
  if (singles.length >= 2 && matrix.length < 20)
    matrix.push({ variable: "supplement", values: singles.map((value) => ({ value })) });
  if (/\baerobic\b/i.test(text) && /\banaerobic\b/i.test(text) && matrix.length < 20) {
    matrix.push({ variable: "oxygen", values: [{ value: "aerobic" }, { value: "anaerobic" }] });
  }
  if (matrix.length === 0) {
    matrix.push({
      variable: "condition",
      values: [{ value: "reference condition" }, { value: "test condition" }],
    });
    notes.push(
      "No varied condition was recognised: replace microbial_growth.condition_matrix with the variables and their levels.",
    );
  }
  return matrix;
}

/** Concentrations grouped by the supplement they are of ("0.5, 1 and 2% glucose"). */
function supplementLevels(
  text: string,
  extraction: DraftInput["extraction"],
): Map<string, { value: number; unit: string }[]> {
  const groups = new Map<number, Quantity[]>();
  for (const q of extraction.concentrations) groups.set(q.group, [...(groups.get(q.group) ?? []), q]);
  const bySupplement = new Map<string, { value: number; unit: string }[]>();
  for (const list of groups.values()) {
    const first = list[0] as Quantity;
    const last = list[list.length - 1] as Quantity;
    const before = text.slice(Math.max(0, first.start - 30), first.start);
    let word = SUPPLEMENT_WORD.exec(text.slice(last.end))?.[1];
    if (!word || NOT_SUPPLEMENTS.test(word)) word = SUPPLEMENT_BEFORE.exec(before)?.[1];
    if (!word || NOT_SUPPLEMENTS.test(word)) continue;
    const values = bySupplement.get(word) ?? [];
    // "± 5% serum", "with and without 5% serum": the supplement's absence is a level too.
    if (WITH_AND_WITHOUT.test(before)) values.push({ value: 0, unit: first.unit });
    values.push(...list.map((q) => ({ value: q.value, unit: q.unit })));
    bySupplement.set(word, values);
  }
  return bySupplement;
}

/** Incubation time, what is measured, and a read every interval (15 min unless stated). */
function growthSchedule(
  input: DraftInput,
  notes: string[],
): { incubation: number; measurement: string; readSchedule: { time_hours: number; measurement: string }[] } {
  const { text, extraction } = input;
  const hours = extraction.durations
    .map((d) => (d.unit === "h" ? d.value : d.unit === "d" ? d.value * 24 : undefined))
    .filter((h): h is number => h !== undefined && h >= 4 && h <= 240)
    .sort((a, b) => b - a)[0];
  const incubation = hours ?? 24;
  if (hours === undefined)
    notes.push("Incubation of 24 h is a default; set microbial_growth.incubation_hours.");
  const every = extraction.durations.find((d) => d.unit === "min" && d.value >= 5 && d.value <= 60);
  const intervalHours = every ? every.value / 60 : 0.25;
  const reads = Math.min(Math.floor(incubation / intervalHours + 1e-9) + 1, 1000);
  const measurement = /\bCFU\b|\bplate counts?\b|\bcolony counts?\b/i.test(text)
    ? /\bOD\s?600\b/i.test(text)
      ? "both"
      : "CFU"
    : "OD600";
  const readSchedule = Array.from({ length: reads }, (_, i) => ({
    time_hours: round3(i * intervalHours),
    measurement,
  }));
  return { incubation, measurement, readSchedule };
}

/** The hypothesis and its criterion: a stated growth-rate gain, else a difference at p < 0.05. */
function growthClaim(
  text: string,
  words: { org: string; where: string; variables: string; measurement: string; incubation: number },
): { statement: string; criterion: Criterion; successConditions: SuccessCondition[] } {
  const { org, where, variables, measurement, incubation } = words;
  const percent = /(\d+(?:\.\d+)?)\s?%\s(?:faster|higher growth|greater growth)/i.exec(text);
  let statement: string;
  let criterion: Criterion;
  const successConditions: SuccessCondition[] = [];
  if (percent) {
    const value = Number(percent[1]);
    statement = `The maximum specific growth rate of ${org}${where} is at least ${num(value)}% higher at one level of ${variables} than at the lowest-growth level, measured from ${measurement === "CFU" ? "viable counts" : "OD600 growth curves"} over ${num(incubation)} h.`;
    criterion = { source: "query", text: `growth rate at least ${num(value)}% higher (${percent[0]})` };
    successConditions.push({
      metric: "growth rate ratio (best vs worst condition)",
      operator: "gte",
      threshold: round3(1 + value / 100),
      unit: "ratio",
      description: "Maximum specific growth rate from per-well fits, blank-subtracted.",
    });
  } else {
    statement = `The maximum specific growth rate of ${org}${where} differs between at least two levels of ${variables}, measured from ${measurement === "CFU" ? "viable counts" : "OD600 growth curves"} over ${num(incubation)} h (p < 0.05).`;
    criterion = { source: "standard", text: "a growth-rate difference between conditions at p < 0.05" };
    successConditions.push({
      metric: "p-value for a growth-rate difference between conditions",
      operator: "lt",
      threshold: 0.05,
      description: "Maximum specific growth rate from per-well fits, blank-subtracted; one-way ANOVA.",
    });
  }
  return { statement, criterion, successConditions };
}

/** Aeration when oxygen does not vary across the matrix: as stated, else shaking. */
function aerationFor(text: string, matrix: readonly MatrixVariable[], notes: string[]): string | undefined {
  const oxygenVaries = matrix.some((m) => m.variable === "oxygen");
  const aeration = oxygenVaries
    ? undefined
    : /\banaerob/i.test(text)
      ? "anaerobic"
      : /\bstatic\b|\bstanding\b|\bwithout shaking\b/i.test(text)
        ? "static"
        : "shaking";
  if (oxygenVaries) notes.push("Oxygen varies across the matrix: state how each condition is aerated.");
  if (aeration === "shaking" && !/\bshak/i.test(text))
    notes.push("Shaking incubation is a default for kinetic plate reads; change it if needed.");
  return aeration;
}

/** "temperature (30 °C, 37 °C) and medium (LB, M9)". */
function describeMatrix(matrix: readonly MatrixVariable[]): string {
  return prose(
    matrix.map(
      (m) =>
        `${m.variable} (${m.values.map((v) => (typeof v.value === "number" ? quantity(v.value, v.unit ?? "").trim() : v.value)).join(", ")})`,
    ),
  );
}
