/** CUSTOM drafts: a protocol design request with a readout-specific hypothesis. */
import { type CompoundMention, type Extraction, testCompound } from "../extract.js";
import { clampText, num } from "../format.js";
import { readPercentEffect } from "../thresholds.js";
import {
  compoundLabel,
  type Criterion,
  directionOf,
  type DraftInput,
  organismLabel,
  type SuccessCondition,
  type TypeDraft,
} from "./shared.js";

/**
 * What a CUSTOM experiment measures, by its cue: the readout phrase of the hypothesis and the
 * title. Specific biological readouts come before method-only cues (annexin V staining read by
 * flow cytometry is an apoptosis readout).
 */
const READOUTS: readonly { cue: string; readout: string; title: string }[] = [
  { cue: "biofilm", readout: "biofilm biomass", title: "Biofilm assay" },
  { cue: "hemolysis", readout: "hemolysis", title: "Hemolysis assay" },
  { cue: "migration/wound healing", readout: "cell migration (wound closure)", title: "Migration assay" },
  { cue: "apoptosis", readout: "the apoptotic cell fraction", title: "Apoptosis assay" },
  { cue: "colony formation", readout: "colony formation", title: "Colony formation assay" },
  { cue: "cytokine release", readout: "cytokine release", title: "Cytokine release" },
  { cue: "reporter assay", readout: "reporter activity", title: "Reporter assay" },
  {
    cue: "membrane/ROS readout",
    readout: "the ROS or membrane-integrity signal",
    title: "ROS or membrane assay",
  },
  { cue: "motility/persisters", readout: "the measured phenotype", title: "Phenotypic assay" },
  {
    cue: "organoid/co-culture",
    readout: "the organoid or co-culture readout",
    title: "Organoid or co-culture assay",
  },
  { cue: "protein level", readout: "the target protein level", title: "Protein level" },
  {
    cue: "western blot",
    readout: "the target protein level measured by western blot",
    title: "Western blot",
  },
  { cue: "ELISA", readout: "the secreted protein level measured by ELISA", title: "ELISA" },
  {
    cue: "flow cytometry",
    readout: "the fraction of marker-positive cells measured by flow cytometry",
    title: "Flow cytometry",
  },
  { cue: "crystal violet", readout: "crystal-violet-stained biomass", title: "Crystal violet assay" },
  { cue: "microscopy", readout: "the imaging readout", title: "Imaging assay" },
  {
    cue: "mass spectrometry/HPLC",
    readout: "the analyte level measured by LC-MS or HPLC",
    title: "Analytical assay",
  },
  { cue: "sequencing (not Sanger)", readout: "the sequencing readout", title: "Sequencing experiment" },
  { cue: "in vivo", readout: "the in vivo outcome", title: "In vivo experiment" },
];

function customSubject(text: string, extraction: Extraction): string {
  const organism = extraction.organisms[0];
  const cell = extraction.cellLines[0];
  if (organism) return organismLabel(organism);
  if (cell) return `${cell.name} cells`;
  const blood = /\b(human |sheep |horse |rabbit )?(?:red blood cells|erythrocytes|RBCs?)\b/i.exec(text);
  if (blood) return `${(blood[1] ?? "").toLowerCase()}red blood cells`;
  return "the test system";
}

export function draftCustom(input: DraftInput, query: string): TypeDraft {
  const { text, extraction, cues } = input;
  const notes: string[] = [];
  const labels = new Set(cues.filter((c) => c.type === "CUSTOM").map((c) => c.label));
  const compounds = extraction.compounds.filter((c) => !c.control);
  const compound = testCompound(extraction);
  const subject = customSubject(text, extraction);
  const agent = compound ? compoundLabel(compound) : "the test condition";
  const chosen = READOUTS.find((r) => labels.has(r.cue));
  const claim =
    labels.has("checkerboard/synergy") && compounds.length >= 2
      ? synergyClaim(compounds as [CompoundMention, CompoundMention], subject)
      : labels.has("time-kill")
        ? timeKillClaim(agent, subject)
        : readoutClaim(text, { agent, subject, compound, chosen });
  const { statement, nullHypothesis, criterion, success, statisticalTest, title } = claim;
  notes.push(
    "CUSTOM: the draft asks Petri staff to design the protocol (protocol.type protocol_design_requested); replace it with protocol.custom_protocol if you have one.",
    "Budget 1000 USD is a placeholder: custom work has no typical price band.",
  );
  const brief = clampText(
    `Design a protocol for this request: ${query.trim() === "" ? "(no description given)" : query}`,
    5000,
  );
  const keyword = chosen
    ? chosen.cue.split("/")[0]
    : labels.has("time-kill")
      ? "time-kill"
      : labels.has("checkerboard/synergy")
        ? "checkerboard synergy"
        : "";
  return {
    title,
    statement,
    nullHypothesis,
    criterion,
    sections: { protocol: { type: "protocol_design_requested", protocol_design_brief: brief } },
    successConditions: [success],
    failureConditions: [
      {
        condition: "Untreated control outside its expected range",
        interpretation: "Run invalid; the lab repeats it.",
      },
    ],
    ...(statisticalTest ? { statisticalTest } : {}),
    rawDataFormats: ["CSV"],
    processedOutputs: ["QC_SUMMARY"],
    packageLevel: "L1_BASIC_QC",
    materials: [],
    notes,
    searchKeywords: keyword ?? "",
  };
}

/** A custom hypothesis: its claim, criterion, statistics and title. */
interface CustomClaim {
  statement: string;
  nullHypothesis: string;
  criterion: Criterion;
  success: SuccessCondition;
  statisticalTest: TypeDraft["statisticalTest"];
  title: string;
}

/** Two drugs in a checkerboard: synergy is an FICI of at most 0.5. */
function synergyClaim(compounds: [CompoundMention, CompoundMention], subject: string): CustomClaim {
  const [a, b] = compounds;
  const statement = `${a.name} and ${b.name} act synergistically against ${subject} in a checkerboard assay compared with each drug alone, with a fractional inhibitory concentration index (FICI) of at most 0.5.`;
  const nullHypothesis = `${a.name} and ${b.name} do not act synergistically against ${subject}: the FICI is above 0.5.`;
  const criterion: Criterion = { source: "standard", text: "FICI at most 0.5 (synergy)" };
  const success: SuccessCondition = {
    metric: "FICI",
    operator: "lte",
    threshold: 0.5,
    unit: "index",
    description: "Lowest FICI over the checkerboard.",
  };
  const title = `Checkerboard synergy of ${a.name} and ${b.name} against ${subject}`;
  return { statement, nullHypothesis, criterion, success, statisticalTest: undefined, title };
}

/** Bactericidal activity: a 3 log10 CFU/mL reduction within 24 h. */
function timeKillClaim(agent: string, subject: string): CustomClaim {
  const statement = `${agent} reduces viable counts of ${subject} by at least 3 log10 CFU/mL from the starting inoculum within 24 h in a time-kill assay (bactericidal activity).`;
  const nullHypothesis = `${agent} does not reduce viable counts of ${subject} by 3 log10 CFU/mL or more within 24 h (no bactericidal activity).`;
  const criterion: Criterion = {
    source: "standard",
    text: "at least 3 log10 CFU/mL reduction within 24 h (bactericidal)",
  };
  const success: SuccessCondition = {
    metric: "log10 CFU/mL reduction at 24 h",
    operator: "gte",
    threshold: 3,
    unit: "log10 CFU/mL",
    description: "Versus the starting inoculum.",
  };
  const title = `Time-kill assay of ${agent} against ${subject}`;
  return { statement, nullHypothesis, criterion, success, statisticalTest: undefined, title };
}

/** A readout versus the untreated control: the stated percentage change, else a difference at p < 0.05. */
function readoutClaim(
  text: string,
  context: {
    agent: string;
    subject: string;
    compound: CompoundMention | undefined;
    chosen: (typeof READOUTS)[number] | undefined;
  },
): CustomClaim {
  const { agent, subject, compound, chosen } = context;
  const direction = directionOf(text);
  const verb = direction === "up" ? "increases" : direction === "down" ? "reduces" : "changes";
  const effect = readPercentEffect(text);
  let statement: string;
  let criterion: Criterion;
  let success: SuccessCondition;
  const readout = chosen?.readout ?? "the measured outcome";
  const of = readout.startsWith("the ") ? "in" : "of";
  if (effect) {
    statement = `${agent} ${verb} ${readout} ${of} ${subject} by at least ${num(effect.percent)}% compared with the untreated control.`;
    criterion = { source: "query", text: `at least ${num(effect.percent)}% change (${effect.text})` };
    success = {
      metric: `${readout} relative to untreated control`,
      operator: "gte",
      threshold: effect.percent,
      unit: direction === "up" ? "% increase" : direction === "down" ? "% reduction" : "% change",
      description: "Mean of replicates versus the untreated control.",
    };
  } else {
    statement = `${agent} ${verb} ${readout} ${of} ${subject} compared with the untreated control (two-sided test, p < 0.05).`;
    criterion = { source: "standard", text: "a difference from the untreated control at p < 0.05" };
    success = {
      metric: "p-value versus the untreated control",
      operator: "lt",
      threshold: 0.05,
      description: `Difference in ${readout}.`,
    };
  }
  const nullHypothesis = `${agent} does not change ${readout} ${of} ${subject} compared with the untreated control (no difference).`;
  const title = `${chosen?.title ?? "Custom experiment"}: ${compound ? compound.name : "test condition"} on ${subject.replace(/^the /, "")}`;
  return { statement, nullHypothesis, criterion, success, statisticalTest: "t_test", title };
}
