/** MIC/MBC (CLSI M07) and disk or well diffusion (CLSI M02) drafts. */
import { testCompound } from "../extract.js";
import { num, quantity, round3, unique } from "../format.js";
import { canonicalConcentrationUnit, type Quantity } from "../patterns.js";
import {
  readBoundedConcentration,
  readMetricThreshold,
  readZoneThreshold,
  type Threshold,
} from "../thresholds.js";
import {
  clampName,
  type Claim,
  comparatorWords,
  compoundLabel,
  type Criterion,
  type DraftInput,
  firstRange,
  hoursOf,
  incubationTemperature,
  MASS_PER_VOLUME,
  MOLAR,
  organismFields,
  organismLabel,
  organismSourceField,
  singleStatedConcentration,
  statedCriterion,
  type SuccessCondition,
  type TypeDraft,
  withinTestedRange,
} from "./shared.js";

/** The query asks for a minimum bactericidal (or fungicidal) concentration too. */
const MBC_ASKED =
  /\bM[BF]C\b|\bminim(?:um|al) (?:bactericidal|fungicidal|lethal)\b|\bbactericidal\b|\bfungicidal\b/i;

export function draftMic(input: DraftInput): TypeDraft {
  const { text, extraction } = input;
  const notes: string[] = [];
  const organism = extraction.organisms[0];
  const compound = testCompound(extraction);
  const fungal = organism?.entry?.kind === "fungus";
  const control = extraction.compounds.find((c) => c !== compound && c.source === "antimicrobial");
  const mbc = MBC_ASKED.test(text);
  const threshold =
    readMetricThreshold(text, String.raw`MICs?(?:50|90)?`, "lte", canonicalConcentrationUnit, "µg/mL") ??
    readBoundedConcentration(text, MASS_PER_VOLUME) ??
    singleStatedConcentration(extraction.concentrations, MASS_PER_VOLUME);
  const range = micRange(extraction, threshold, notes);
  const setup = micSetup(text, extraction, fungal, notes);
  if (!organism) notes.push("No organism was recognised: set mic_mbc.organism.");
  if (!compound) notes.push("No test compound was recognised: set mic_mbc.compound_name.");

  const org = organismLabel(organism);
  const agent = compoundLabel(compound);
  const { statement, nullHypothesis, criterion, successConditions } = withMbc(
    mbc,
    micClaim(threshold, range, {
      agent,
      org,
      methodWords: setup.method.replace(/_/g, " "),
      conditions: `after ${num(setup.hours)} h at ${num(setup.temperature)} °C`,
    }),
  );
  const { method, hours, temperature, medium } = setup;
  const twoFold =
    Math.abs(Math.log2(range.max / range.min) - Math.round(Math.log2(range.max / range.min))) < 0.01;
  return {
    title: `MIC${mbc ? " and MBC" : ""} of ${agent} against ${organism ? organism.name : "the test organism"}`,
    statement,
    nullHypothesis,
    criterion,
    sections: {
      mic_mbc: {
        ...organismFields(organism),
        ...organismSourceField(organism),
        medium,
        compound_name: agent,
        concentration_range: {
          min: range.min,
          max: range.max,
          unit: range.unit,
          dilution_series: twoFold ? "2-fold" : "custom",
        },
        inoculum_cfu_ml: fungal ? 2500 : 500000,
        incubation_hours: hours,
        incubation_temperature_c: temperature,
        ...(control ? { positive_control_antibiotic: clampName(control.name) } : {}),
        determine_mbc: mbc,
        method,
      },
    },
    successConditions,
    failureConditions: micFailureConditions(),
    rawDataFormats: ["CSV", "IMAGE_FILES"],
    processedOutputs: mbc ? ["MIC_VALUE", "MBC_VALUE", "QC_SUMMARY"] : ["MIC_VALUE", "QC_SUMMARY"],
    packageLevel: "L1_BASIC_QC",
    materials: compound ? [{ name: agent, specification: "test compound", provided_by_requester: true }] : [],
    notes: [
      ...notes,
      ...(fungal
        ? ["Inoculum 2.5 x 10^3 CFU/mL is a yeast default (CLSI M27 range 0.5-2.5 x 10^3); check it."]
        : ["Inoculum 5 x 10^5 CFU/mL, 35 °C and Mueller-Hinton broth follow CLSI M07."]),
      ...(control
        ? []
        : [
            "No reference antibiotic was named: add a QC strain and reference drug (positive_control_antibiotic).",
          ]),
    ],
    searchKeywords: "minimum inhibitory concentration",
  };
}

type MicRange = { min: number; max: number; unit: string };
type StatedThreshold = Threshold | null | undefined;

/** The stated range, else 10 two-fold steps around the stated MIC, else a default range. */
function micRange(
  extraction: DraftInput["extraction"],
  threshold: StatedThreshold,
  notes: string[],
): MicRange {
  const stated = firstRange(
    extraction.concentrations,
    new RegExp(`${MASS_PER_VOLUME.source}|${MOLAR.source}`),
  );
  let range: MicRange;
  if (stated) range = stated;
  else if (threshold && threshold.unit !== "%") {
    range = { min: round3(threshold.value / 32), max: round3(threshold.value * 16), unit: threshold.unit };
    notes.push(
      `Concentration range ${num(range.min)}-${num(range.max)} ${range.unit} (10 two-fold steps around the stated MIC threshold) is a default; adjust it if needed.`,
    );
  } else {
    range = { min: 0.125, max: 64, unit: "µg/mL" };
    notes.push(
      "Concentration range 0.125-64 µg/mL (10 two-fold steps) is a default; adjust it to the compound.",
    );
  }
  return range;
}

/** Method, incubation and medium: CLSI M07 defaults, yeasts and moulds apart. */
function micSetup(
  text: string,
  extraction: DraftInput["extraction"],
  fungal: boolean,
  notes: string[],
): { method: string; hours: number; temperature: number; medium: string } {
  const method = /\bagar dilution\b/i.test(text)
    ? "agar_dilution"
    : /\bmacro-?dilution\b|\btube dilution\b/i.test(text)
      ? "broth_macrodilution"
      : "broth_microdilution";
  const hours = hoursOf(extraction.durations, 4) ?? (fungal ? 24 : 18);
  const temperature = incubationTemperature(extraction, 20, 45) ?? 35;
  const medium = fungal
    ? (extraction.media.find((m) => m.entry?.for !== "bacteria")?.name ?? "RPMI 1640 (MOPS-buffered)")
    : (extraction.media.find((m) => /Mueller-Hinton/.test(m.name))?.name ??
      "Cation-adjusted Mueller-Hinton broth");
  if (fungal)
    notes.push(
      "Yeasts and moulds are tested under CLSI M27/M38 (RPMI 1640), not M07; check the medium and read time.",
    );
  return { method, hours, temperature, medium };
}

/** The hypothesis and its criterion: the stated MIC threshold, else the top of the tested range. */
function micClaim(
  threshold: StatedThreshold,
  range: MicRange,
  words: { agent: string; org: string; methodWords: string; conditions: string },
): Claim {
  const { agent, org, methodWords, conditions } = words;
  const description = `Lowest concentration without visible growth, ${org}.`;
  if (threshold && threshold.unit !== "%") {
    const claim = comparatorWords(threshold);
    const limit = quantity(threshold.value, threshold.unit);
    const atOrBelow =
      threshold.comparator === "lt" ? "below" : threshold.comparator === "lte" ? "at or below" : undefined;
    return {
      statement: `${agent} inhibits visible growth of ${org} in ${methodWords} with a MIC ${claim.ofClaim} ${limit} ${conditions}.`,
      nullHypothesis: atOrBelow
        ? `${agent} does not inhibit visible growth of ${org} in ${methodWords} at concentrations ${atOrBelow} ${limit}: the MIC is ${claim.negation} ${limit} ${conditions}.`
        : `${agent} does not inhibit visible growth of ${org} in ${methodWords} with a MIC ${claim.ofClaim} ${limit}: the MIC is ${claim.negation} ${limit} ${conditions}.`,
      ...statedCriterion("MIC", threshold, limit, description),
    };
  }
  const top = quantity(range.max, range.unit);
  return {
    statement: `${agent} inhibits visible growth of ${org} in ${methodWords} at a concentration of at most ${top}, the top of the tested range (MIC at most ${top}) ${conditions}.`,
    nullHypothesis: `No concentration of ${agent} up to ${top} inhibits visible growth of ${org} in ${methodWords} (MIC above ${top}) ${conditions}.`,
    ...withinTestedRange("MIC", { value: range.max, unit: range.unit }, description),
  };
}

/** With MBC asked for, the claim names it as a secondary outcome and the MBC/MIC ratio is a condition. */
function withMbc(
  mbc: boolean,
  claim: Claim,
): {
  statement: string;
  nullHypothesis: string;
  criterion: Criterion;
  successConditions: SuccessCondition[];
} {
  const { nullHypothesis, criterion } = claim;
  let statement = claim.statement;
  if (mbc)
    statement = statement.replace(
      /\.$/,
      "; the MBC is measured as a secondary outcome (bactericidal if MBC/MIC is at most 4).",
    );
  const successConditions: SuccessCondition[] = [claim.success];
  if (mbc) {
    successConditions.push({
      metric: "MBC/MIC ratio",
      operator: "lte",
      threshold: 4,
      unit: "ratio",
      description: "MBC: lowest concentration killing at least 99.9% of the inoculum.",
    });
  }
  return { statement, nullHypothesis, criterion, successConditions };
}

function micFailureConditions(): TypeDraft["failureConditions"] {
  return [
    {
      condition: "Growth control well (no drug) shows no growth",
      interpretation: "Run invalid; the lab repeats it.",
    },
    {
      condition: "Sterility control well (no inoculum) shows growth",
      interpretation: "Contamination; the lab repeats it.",
    },
    {
      condition: "MIC of the reference antibiotic against the QC strain outside its published range",
      interpretation: "Run invalid; the lab repeats it.",
    },
  ];
}

// Zone of inhibition ----------------------------------------------------------------------------

export function draftZone(input: DraftInput): TypeDraft {
  const { text, extraction } = input;
  const notes: string[] = [];
  const organism = extraction.organisms[0];
  const compound = testCompound(extraction);
  const control = extraction.compounds.find(
    (c) => c !== compound && (c.control || c.source === "antimicrobial"),
  );
  const threshold = readZoneThreshold(text);
  const diskSize = /(\d+(?:\.\d+)?)\s?mm\s(?:paper |filter |blank )?dis[ck]/i.exec(text);
  const diskDiameter = diskSize ? Number(diskSize[1]) : 6;
  const loadings = diskLoadings(extraction, compound);
  const hours = hoursOf(extraction.durations, 4) ?? 18;
  const temperature = incubationTemperature(extraction, 20, 45) ?? 35;
  const wellDiffusion = /\bwell[- ]diffusion\b|\bagar wells?\b/i.test(text);
  const org = organismLabel(organism);
  const agent = compoundLabel(compound);
  const carrier = wellDiffusion ? "well" : "disk";
  const loaded = loadings[0]
    ? `A ${carrier} loaded with ${quantity(loadings[0].amount, loadings[0].unit)} of ${agent}`
    : `A ${carrier} of ${agent}`;
  const conditions = `on Mueller-Hinton agar after ${num(hours)} h at ${num(temperature)} °C`;
  if (!organism) notes.push("No organism was recognised: set zone_of_inhibition.organism.");
  if (!compound) notes.push("No test compound was recognised: set zone_of_inhibition.compound_name.");
  if (loadings.length === 0)
    notes.push("No disk loading was stated: add zone_of_inhibition.disk_loading (amount per disk).");
  if (!control)
    notes.push("No reference antibiotic disk was named: add zone_of_inhibition.positive_control.");

  const { statement, nullHypothesis, criterion, success } = zoneClaim(threshold, {
    loaded,
    org,
    conditions,
    diskDiameter,
    carrier,
  });
  return {
    title: `${wellDiffusion ? "Agar well diffusion" : "Disk diffusion"} of ${agent} on ${organism ? organism.name : "the test organism"}`,
    statement,
    nullHypothesis,
    criterion,
    sections: {
      zone_of_inhibition: {
        ...organismFields(organism),
        medium: "Mueller-Hinton agar",
        compound_name: agent,
        disk_loading: loadings,
        disk_diameter_mm: diskDiameter,
        ...(control ? { positive_control: clampName(control.name) } : {}),
        incubation_hours: hours,
        incubation_temperature_c: temperature,
      },
    },
    successConditions: [success],
    failureConditions: [
      {
        condition: "No confluent lawn on the growth control plate",
        interpretation: "Run invalid; the lab repeats it.",
      },
      {
        condition: "Reference antibiotic disk zone outside its published QC range",
        interpretation: "Run invalid; the lab repeats it.",
      },
    ],
    rawDataFormats: ["IMAGE_FILES", "CSV"],
    processedOutputs: ["ZONE_DIAMETER_MM", "QC_SUMMARY"],
    packageLevel: "L1_BASIC_QC",
    materials: compound ? [{ name: agent, specification: "test compound", provided_by_requester: true }] : [],
    notes: [...notes, "Mueller-Hinton agar, a 0.5 McFarland lawn, 35 °C and 16-18 h follow CLSI M02."],
    searchKeywords: "disk diffusion zone of inhibition",
  };
}

/** Amounts per disk, except those right after a control ("gentamicin 10 µg disc as control"). */
function diskLoadings(
  extraction: DraftInput["extraction"],
  compound: ReturnType<typeof testCompound>,
): { amount: number; unit: string }[] {
  const controls = extraction.compounds.filter((c) => c !== compound && c.control);
  const ofControl = (a: Quantity) =>
    controls.some((c) => a.start >= c.start && a.start - c.start <= c.name.length + 12);
  return unique(
    extraction.amounts
      .filter((a) => /^[nµm]?g$/.test(a.unit) && !ofControl(a))
      .map((a) => `${a.value}|${a.unit}`),
  ).map((key) => {
    const [value, unit] = key.split("|") as [string, string];
    return { amount: Number(value), unit };
  });
}

const ZONE_MEAN = "Mean of replicate disks, including the disk.";

/** The hypothesis and its criterion: the stated zone diameter, else any zone beyond the disk. */
function zoneClaim(
  threshold: Threshold | null,
  words: { loaded: string; org: string; conditions: string; diskDiameter: number; carrier: string },
): Claim {
  const { loaded, org, conditions, diskDiameter, carrier } = words;
  if (threshold) {
    const claim = comparatorWords(threshold);
    const limit = `${num(threshold.value)} mm`;
    return {
      statement: `${loaded} produces a zone of inhibition with a diameter ${claim.ofClaim} ${limit} on a lawn of ${org} ${conditions}.`,
      nullHypothesis: `${loaded} does not produce a zone of inhibition with a diameter ${claim.ofClaim} ${limit} on a lawn of ${org}: the zone diameter is ${claim.negation} ${limit} ${conditions}.`,
      ...statedCriterion("zone diameter", threshold, limit, ZONE_MEAN, "mm"),
    };
  }
  return {
    statement: `${loaded} produces a clear zone of inhibition on a lawn of ${org}, with a diameter greater than the ${num(diskDiameter)} mm ${carrier}, ${conditions}.`,
    nullHypothesis: `${loaded} produces no zone of inhibition on a lawn of ${org} beyond the ${num(diskDiameter)} mm ${carrier} (diameter not greater than ${num(diskDiameter)} mm) ${conditions}.`,
    criterion: { source: "standard", text: `any clear zone beyond the ${num(diskDiameter)} mm ${carrier}` },
    success: {
      metric: "zone diameter",
      operator: "gt",
      threshold: diskDiameter,
      unit: "mm",
      description: ZONE_MEAN,
    },
  };
}
