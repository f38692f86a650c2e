/** Dose-response drafts: cell viability IC50 and enzyme inhibition IC50. */
import { type Extraction, testCompound } from "../extract.js";
import { capitalise, num, quantity, round3 } from "../format.js";
import type { Threshold } from "../thresholds.js";
import {
  clampName,
  comparatorWords,
  compoundLabel,
  type Claim,
  type DraftInput,
  firstRange,
  hoursOf,
  ic50Threshold,
  incubationTemperature,
  MASS_PER_VOLUME,
  minutesOf,
  MOLAR,
  readableMolar,
  statedCriterion,
  threeFoldSeries,
  type TypeDraft,
  VEHICLE_FAILURE,
  withinTestedRange,
} from "./shared.js";

const ASSAYS: [RegExp, string][] = [
  [/\bcell-?titer[- ]?glo\b|\bCTG\b|\bATP[- ](?:content|luminescence|based)\b/i, "CELLTITER_GLO"],
  [/\bMTT\b/, "MTT"],
  [/\bMTS\b/, "MTS"],
  [/\bresazurin\b|\balamar ?blue\b|\bpresto ?blue\b/i, "RESAZURIN"],
  [/\blive\/dead\b|\blive-dead\b|\bcalcein\b/i, "LIVE_DEAD"],
];

const TOP_DOSE =
  /\b(?:top|highest|maximum|max\.?) (?:dose|concentration)s?(?: of)?\s?(?:=|:|is|at)?\s?$|\bup to\s?$/i;

function dosePlan(
  text: string,
  extraction: Extraction,
  threshold: Threshold | null,
  notes: string[],
): { min: number; max: number; unit: string; points: number; series: "2-fold" | "3-fold" } {
  const doseUnits = new RegExp(`${MOLAR.source}|${MASS_PER_VOLUME.source}`);
  const topDose = extraction.concentrations.find(
    (q) => doseUnits.test(q.unit) && TOP_DOSE.test(text.slice(Math.max(0, q.start - 30), q.start)),
  );
  const stated = firstRange(extraction.concentrations, doseUnits);
  if (!stated && topDose) {
    notes.push(
      `Dose range: 10 three-fold dilutions down from the stated top dose ${quantity(topDose.value, topDose.unit)}.`,
    );
    return {
      min: round3(topDose.value / 3 ** 9),
      max: topDose.value,
      unit: topDose.unit,
      points: 10,
      series: "3-fold",
    };
  }
  if (stated) {
    const ratio = stated.max / stated.min;
    const threeFold = Math.floor(Math.log(ratio) / Math.log(3) + 1e-9) + 1;
    if (threeFold >= 8) return { ...stated, points: Math.min(threeFold, 24), series: "3-fold" };
    const twoFold = Math.floor(Math.log2(ratio) + 1e-9) + 1;
    return { ...stated, points: Math.max(3, Math.min(twoFold, 24)), series: "2-fold" };
  }
  if (threshold && threshold.unit !== "%") {
    const top = MOLAR.test(threshold.unit)
      ? readableMolar(threshold.value * 30, threshold.unit)
      : { value: round3(threshold.value * 30), unit: threshold.unit };
    notes.push(
      `Dose range: 10 three-fold dilutions from ${quantity(top.value, top.unit)} (30 times the stated IC50 threshold) is a default; check solubility.`,
    );
    return { min: round3(top.value / 3 ** 9), max: top.value, unit: top.unit, points: 10, series: "3-fold" };
  }
  notes.push(
    "Dose range: 10 three-fold dilutions from 30 µM (1.52 nM-30 µM) is a default; adjust it to the compound.",
  );
  return { min: round3(30 / 3 ** 9), max: 30, unit: "µM", points: 10, series: "3-fold" };
}

export function draftViability(input: DraftInput): TypeDraft {
  const { text, extraction } = input;
  const notes: string[] = [];
  const cell = extraction.cellLines[0];
  const compound = testCompound(extraction);
  const control = extraction.compounds.find((c) => c !== compound && c.source === "reference");
  const threshold = ic50Threshold(text, extraction.concentrations);
  const plan = dosePlan(text, extraction, threshold, notes);
  const hours = hoursOf(extraction.durations, 4);
  const exposure = hours ?? 72;
  if (hours === undefined)
    notes.push("Exposure time 72 h is a default; set cell_viability.exposure_time_hours.");
  const assay = ASSAYS.find(([pattern]) => pattern.test(text))?.[1];
  if (!assay)
    notes.push(
      "No viability readout was named: set cell_viability.assay_type (e.g. CELLTITER_GLO, MTT, RESAZURIN).",
    );
  if (!cell) notes.push("No cell line was recognised: set cell_viability.cell_line.");
  if (!compound) notes.push("No test compound was recognised: set cell_viability.compound_name.");
  const plate = /\b384[- ]?well\b/i.test(text) ? "384-well" : "96-well";
  const cellName = cell ? cell.name : "the test cell line";
  const agent = compoundLabel(compound);
  const positive = killControl(compound, control, notes);
  const exposureWords = `after ${num(exposure)} h of exposure`;

  const { statement, nullHypothesis, criterion, success } = viabilityClaim(threshold, plan, {
    agent,
    cellName,
    exposureWords,
  });
  return {
    title: `${cellName} viability IC50 of ${agent}`,
    statement,
    nullHypothesis,
    criterion,
    sections: {
      cell_viability: {
        cell_line: cell ? clampName(cell.name) : "Cell line to be specified",
        ...(assay ? { assay_type: assay } : {}),
        compound_name: agent,
        solvent: "DMSO",
        dose_range: {
          min: plan.min,
          max: plan.max,
          unit: plan.unit,
          points: plan.points,
          dilution_series: plan.series,
        },
        exposure_time_hours: exposure,
        plate_format: plate,
        positive_control: positive,
        include_z_factor: true,
      },
    },
    successConditions: [success],
    failureConditions: viabilityFailureConditions(),
    rawDataFormats: ["CSV"],
    processedOutputs: ["NORMALIZED_VIABILITY_PERCENT", "IC50_CURVE_FIT", "QC_SUMMARY"],
    packageLevel: "L2_INTERPRETATION",
    materials: compound
      ? [
          {
            name: agent,
            specification: "test compound; state the stock concentration and solvent",
            provided_by_requester: true,
          },
        ]
      : [],
    notes: [...notes, "Keep DMSO at or below 0.5% in every well and include vehicle-only wells."],
    searchKeywords: "cytotoxicity IC50",
  };
}

/** The named reference compound, else staurosporine (Triton X-100 when staurosporine is tested). */
function killControl(
  compound: ReturnType<typeof testCompound>,
  control: ReturnType<typeof testCompound>,
  notes: string[],
): string {
  const defaultPositive =
    compound?.name === "staurosporine" ? "Triton X-100 (full-lysis control)" : "staurosporine";
  const positive = control ? clampName(control.name) : defaultPositive;
  if (!control)
    notes.push(
      `Positive (kill) control ${defaultPositive} is a default; set its concentration or choose another.`,
    );
  return positive;
}

function viabilityFailureConditions(): TypeDraft["failureConditions"] {
  return [
    VEHICLE_FAILURE,
    {
      condition: "Z' factor below 0.5",
      interpretation: "Assay window too narrow; the lab repeats the plate.",
    },
  ];
}

// Enzyme inhibition IC50 -------------------------------------------------------------------------

const ENZYME_ASSAYS: [RegExp, string][] = [
  [/\bfluoro(?:genic|metric|scence|scent)\b|\bFRET\b/i, "FLUOROMETRIC"],
  [/\blumines(?:cence|cent)\b|\bADP-?Glo\b|\bGlo\b/i, "LUMINESCENT"],
  [
    /\bcolorimetric\b|\babsorbance\b|\bchromogenic\b|\bnitrocefin\b|\bEllman\b|\bp-?nitrophenyl\b/i,
    "COLORIMETRIC",
  ],
  [/\bradiometric\b|\bradiolabel/i, "RADIOMETRIC"],
  [/\bcoupled\b/i, "COUPLED"],
];

export function draftEnzyme(input: DraftInput): TypeDraft {
  const { text, extraction } = input;
  const notes: string[] = [];
  const enzyme = mostSpecificEnzyme(extraction);
  const compound = testCompound(extraction);
  const reference = enzyme?.entry?.referenceInhibitor;
  const namedControl = extraction.compounds.find(
    (c) => c !== compound && (c.control || c.name === reference),
  );
  const threshold = ic50Threshold(text, extraction.concentrations);
  const top = inhibitorTop(threshold, extraction, notes);
  const concentrations = threeFoldSeries(top.value, 10).map((value) => ({ value, unit: top.unit }));
  const minutes = minutesOf(extraction.durations);
  const preIncubation = minutes ?? 15;
  if (minutes === undefined)
    notes.push("Pre-incubation of enzyme and inhibitor for 15 min is a default; state yours.");
  const temperature = incubationTemperature(extraction, 4, 60);
  const assay = ENZYME_ASSAYS.find(([pattern]) => pattern.test(text))?.[1];
  const positive = namedControl ? namedControl.name : reference !== compound?.name ? reference : undefined;
  if (!positive)
    notes.push(
      "No reference inhibitor is known for this target: set enzyme_inhibition.positive_control_inhibitor.",
    );
  notes.push(
    "Substrate and its concentration (near Km, initial-rate regime) are not set: add substrate and substrate_concentration.",
  );
  if (!enzyme) notes.push("No enzyme was recognised: set enzyme_inhibition.target_enzyme.");
  if (!compound) notes.push("No inhibitor was recognised: set enzyme_inhibition.inhibitor_name.");
  const enzymeName = enzyme ? clampName(enzyme.name) : "Target enzyme to be specified";
  const agent = compoundLabel(compound);

  const { statement, nullHypothesis, criterion, success } = enzymeClaim(threshold, top, agent, enzymeName);
  return {
    title: `${enzyme ? capitalise(enzymeName) : "Enzyme"} inhibition by ${agent}`,
    statement,
    nullHypothesis,
    criterion,
    sections: {
      enzyme_inhibition: {
        target_enzyme: enzymeName,
        ...(assay ? { assay_type: assay } : {}),
        inhibitor_name: agent,
        inhibitor_concentrations: concentrations,
        incubation_time_minutes: preIncubation,
        ...(temperature !== undefined ? { incubation_temperature_c: temperature } : {}),
        ...(positive ? { positive_control_inhibitor: clampName(positive) } : {}),
      },
    },
    successConditions: [success],
    failureConditions: [
      VEHICLE_FAILURE,
      {
        condition: "Substrate conversion above 15% in the uninhibited control (not initial rate)",
        interpretation: "Rates not initial; the lab lowers the enzyme concentration or the time and repeats.",
      },
    ],
    rawDataFormats: ["CSV"],
    processedOutputs: ["IC50_CURVE_FIT", "QC_SUMMARY"],
    packageLevel: "L2_INTERPRETATION",
    materials: compound
      ? [
          {
            name: agent,
            specification: "inhibitor; state the stock concentration and solvent",
            provided_by_requester: true,
          },
        ]
      : [],
    notes,
    searchKeywords: "inhibition IC50",
  };
}

const VIABILITY_FIT = "Four-parameter logistic fit with 95% CI; Z' >= 0.5.";

/** The hypothesis and its criterion: the stated IC50 threshold, else an IC50 within the tested range. */
function viabilityClaim(
  threshold: Threshold | null,
  plan: { max: number; unit: string },
  words: { agent: string; cellName: string; exposureWords: string },
): Claim {
  const { agent, cellName, exposureWords } = words;
  if (threshold && threshold.unit !== "%") {
    const claim = comparatorWords(threshold);
    const limit = quantity(threshold.value, threshold.unit);
    return {
      statement: `${agent} reduces the viability of ${cellName} cells in a concentration-dependent manner, with an IC50 ${claim.ofClaim} ${limit} ${exposureWords}.`,
      nullHypothesis: `${agent} does not reduce the viability of ${cellName} cells with an IC50 ${claim.ofClaim} ${limit} ${exposureWords}: there is no concentration-dependent decrease, or the IC50 is ${claim.negation} ${limit}.`,
      ...statedCriterion("IC50", threshold, limit, VIABILITY_FIT),
    };
  }
  const top = quantity(plan.max, plan.unit);
  return {
    statement: `${agent} reduces the viability of ${cellName} cells in a concentration-dependent manner, with an IC50 within the tested range (at most ${top}) ${exposureWords}.`,
    nullHypothesis: `${agent} produces no concentration-dependent decrease in the viability of ${cellName} cells up to ${top} ${exposureWords} (IC50 not reached in the tested range).`,
    ...withinTestedRange("IC50", { value: plan.max, unit: plan.unit }, VIABILITY_FIT),
  };
}

const ENZYME_FIT = "Initial rates, four-parameter logistic fit with 95% CI.";

/** The hypothesis and its criterion: the stated IC50 threshold, else an IC50 within the tested range. */
function enzymeClaim(
  threshold: Threshold | null,
  top: { value: number; unit: string },
  agent: string,
  enzymeName: string,
): Claim {
  if (threshold && threshold.unit !== "%") {
    const claim = comparatorWords(threshold);
    const limit = quantity(threshold.value, threshold.unit);
    return {
      statement: `${agent} inhibits ${enzymeName} activity in a concentration-dependent manner, with an IC50 ${claim.ofClaim} ${limit}.`,
      nullHypothesis: `${agent} does not inhibit ${enzymeName} activity with an IC50 ${claim.ofClaim} ${limit}: there is no concentration-dependent loss of activity, or the IC50 is ${claim.negation} ${limit}.`,
      ...statedCriterion("IC50", threshold, limit, ENZYME_FIT),
    };
  }
  const limit = quantity(top.value, top.unit);
  return {
    statement: `${agent} inhibits ${enzymeName} activity in a concentration-dependent manner, with an IC50 within the tested range (at most ${limit}).`,
    nullHypothesis: `${agent} produces no concentration-dependent inhibition of ${enzymeName} activity up to ${limit} (IC50 not reached in the tested range).`,
    ...withinTestedRange("IC50", top, ENZYME_FIT),
  };
}

/** The most specific target named: "TEM-1 beta-lactamase" over a plain "beta-lactamase". */
function mostSpecificEnzyme(extraction: Extraction): Extraction["enzymes"][number] | undefined {
  return (
    extraction.enzymes.find((e) =>
      extraction.enzymes.some(
        (other) => other !== e && e.name.toLowerCase().includes(other.name.toLowerCase()),
      ),
    ) ?? extraction.enzymes[0]
  );
}

/** The top inhibitor concentration: 30 times the stated IC50, else the top of a stated range, else 100 µM. */
function inhibitorTop(
  threshold: Threshold | null,
  extraction: Extraction,
  notes: string[],
): { value: number; unit: string } {
  let top: { value: number; unit: string };
  if (threshold && threshold.unit !== "%") {
    top = MOLAR.test(threshold.unit)
      ? readableMolar(threshold.value * 30, threshold.unit)
      : { value: round3(threshold.value * 30), unit: threshold.unit };
    notes.push(
      `Inhibitor concentrations: 10 three-fold dilutions from ${quantity(top.value, top.unit)} (30 times the stated IC50 threshold) are a default.`,
    );
  } else {
    const stated = firstRange(extraction.concentrations, MOLAR);
    top = stated ? { value: stated.max, unit: stated.unit } : { value: 100, unit: "µM" };
    notes.push(
      `Inhibitor concentrations: 10 three-fold dilutions from ${quantity(top.value, top.unit)} are a default; adjust them.`,
    );
  }
  return top;
}
