/** Molecular drafts: qPCR expression and Sanger verification. */
import { type Extraction, testCompound } from "../extract.js";
import { clampText, num, prose, quantity, round3, unique } from "../format.js";
import { readFoldChange } from "../thresholds.js";
import {
  clampName,
  type Criterion,
  directionOf,
  type DraftInput,
  MASS_PER_VOLUME,
  MOLAR,
  type SuccessCondition,
  type TypeDraft,
} from "./shared.js";

const CONDITIONS =
  /\b(?:hypoxia|heat shock|cold shock|serum starvation|glucose deprivation|oxidative stress|nutrient starvation|osmotic stress|acid stress|infection|differentiation|LPS stimulation)\b/i;

export function draftQpcr(input: DraftInput): TypeDraft {
  const { text, extraction } = input;
  const notes: string[] = [];
  const { targetNames, references } = qpcrGenes(extraction, notes);
  const subject = extraction.cellLines[0]?.name ?? extraction.organisms[0]?.name;
  const treatment = qpcrTreatment(input, subject, targetNames, notes);
  const { compound } = treatment;
  const direction = directionOf(text);
  const fold = readFoldChange(text);
  const foldValue = fold?.fold ?? 2;
  const geneList = prose(targetNames);
  const refsText = `normalised to ${prose(references)} (ΔΔCq)`;
  const { lead, comparison } = treatment;
  let change: string;
  if (direction === "up") change = `increases ${geneList} mRNA at least ${num(foldValue)}-fold`;
  else if (direction === "down")
    change = `decreases ${geneList} mRNA at least ${num(foldValue)}-fold (to at most 1/${num(foldValue)} of control)`;
  else change = `changes ${geneList} mRNA at least ${num(foldValue)}-fold in either direction`;
  const statement = `${lead} ${change} ${comparison}, ${refsText}.`;
  const nullHypothesis = `${lead} does not change normalised ${geneList} mRNA by ${num(foldValue)}-fold or more ${comparison} (no difference in expression).`;
  const criterion: Criterion = fold
    ? { source: "query", text: `fold change of at least ${num(foldValue)} (${fold.text})` }
    : { source: "standard", text: "fold change of at least 2 (qPCR standard criterion)" };
  const chemistry = /\btaq-?man\b|\bprobe\b/i.test(text) ? "TAQMAN" : "SYBR_GREEN";
  const sampleType = /\bcDNA\b/.test(text)
    ? "cDNA"
    : /\b(?:total )?RNA (?:samples?|extracts?|provided)\b|\bpurified RNA\b/i.test(text)
      ? "RNA"
      : "cells";
  const conditions = qpcrConditions(extraction, treatment, targetNames);
  return {
    title: `${clampText(geneList, 80)} expression ${compound ? `after ${compound.name}` : subject ? `in ${subject}` : "by qPCR"}`,
    statement,
    nullHypothesis,
    criterion,
    sections: {
      qpcr: {
        chemistry,
        targets: targetNames.map((gene) => ({ gene_symbol: clampText(gene, 50) })),
        housekeeping_genes: references,
        sample_type: sampleType,
        number_of_samples: conditions.length * 3,
        conditions,
      },
    },
    successConditions: qpcrSuccessConditions(targetNames, direction, foldValue, refsText),
    failureConditions: qpcrFailureConditions(),
    statisticalTest: conditions.length > 2 ? "anova" : "t_test",
    rawDataFormats: ["INSTRUMENT_EXPORT", "CSV"],
    processedOutputs: [
      "CT_TABLE",
      "DDCT_FOLD_CHANGE",
      "AMPLIFICATION_PLOTS",
      ...(chemistry === "SYBR_GREEN" ? ["MELT_CURVES"] : []),
      "QC_SUMMARY",
    ],
    packageLevel: "L2_INTERPRETATION",
    materials: compound
      ? [{ name: clampName(compound.name), specification: "treatment compound", provided_by_requester: true }]
      : [],
    notes: [
      ...notes,
      "Give primer sequences or assay ids for each target (qpcr.targets[].primer_sequences or assay_id).",
      `Samples: ${conditions.length} conditions x 3 biological replicates; sample_type "${sampleType}" is a guess from the query.`,
    ],
    searchKeywords: "gene expression",
  };
}

/** Target genes named in the query, and at least two reference genes (defaults when not named). */
function qpcrGenes(extraction: Extraction, notes: string[]): { targetNames: string[]; references: string[] } {
  const bacterial =
    extraction.genes.some((g) => g.entry?.scope === "bacterial") ||
    (extraction.organisms.length > 0 && extraction.cellLines.length === 0);
  const mouse = extraction.cellLines[0]?.entry?.species === "mouse";
  const targets = extraction.genes.filter((g) => g.entry?.role !== "reference").slice(0, 10);
  let references = extraction.genes.filter((g) => g.entry?.role === "reference").map((g) => g.name);
  if (references.length < 2) {
    const defaults = bacterial ? ["16S rRNA", "rpoD"] : mouse ? ["Gapdh", "Actb"] : ["GAPDH", "ACTB"];
    references = unique([...references, ...defaults]).slice(0, Math.max(2, references.length));
    notes.push(
      `Reference genes ${prose(references)} are defaults: validate their stability in these samples (MIQE).`,
    );
  }
  if (targets.length === 0) notes.push("No target gene was recognised: set qpcr.targets[].gene_symbol.");
  const targetNames = targets.length > 0 ? targets.map((g) => g.name) : ["TARGET"];
  return { targetNames, references };
}

/** What changes expression: a compound, a knockdown, a stress condition, or an unnamed test condition. */
interface QpcrTreatment {
  compound: ReturnType<typeof testCompound>;
  agentPhrase: string;
  knockdown: boolean;
  rnai: string | undefined;
  condition: string | undefined;
  /** The hypothesis' subject ("Treating HeLa cells with X at 1 µM"). */
  lead: string;
  comparison: string;
}

function qpcrTreatment(
  input: DraftInput,
  subject: string | undefined,
  targetNames: readonly string[],
  notes: string[],
): QpcrTreatment {
  const { text, extraction } = input;
  const compound = testCompound(extraction);
  const treatmentConcentration = extraction.concentrations.find(
    (q) => MOLAR.test(q.unit) || MASS_PER_VOLUME.test(q.unit),
  );
  const duration = extraction.durations.find((d) => d.unit === "h" || d.unit === "d" || d.unit === "min");
  const durationText = duration ? ` for ${quantity(duration.value, duration.unit)}` : "";
  const agentPhrase = compound
    ? `${compound.name}${treatmentConcentration ? ` at ${quantity(treatmentConcentration.value, treatmentConcentration.unit)}` : ""}${durationText}`
    : "the test condition";
  const subjectPhrase = subject ? `${subject}${extraction.cellLines[0] ? " cells" : ""}` : "the samples";
  const rnai = /\b(sh|si)-?RNA\b/i.exec(text)?.[1]?.toLowerCase();
  const knockdown = !compound && (rnai !== undefined || /\bknock-?down\b/i.test(text));
  const condition = compound ? undefined : CONDITIONS.exec(text)?.[0]?.toLowerCase();
  let lead: string;
  let comparison: string;
  if (compound) {
    lead = `Treating ${subjectPhrase} with ${agentPhrase}`;
    comparison = "compared with vehicle";
  } else if (knockdown) {
    lead = `Knocking down ${targetNames[0]} in ${subjectPhrase} with ${rnai ?? "si"}RNA${durationText}`;
    comparison = "compared with a non-targeting control";
  } else if (condition) {
    lead = `Exposing ${subjectPhrase} to ${condition}${durationText}`;
    comparison = "compared with the control condition";
  } else {
    lead = `The test condition in ${subjectPhrase}`;
    comparison = "compared with the control condition";
    notes.push("No treatment was recognised: name the treatment and its control in qpcr.conditions.");
  }
  return { compound, agentPhrase, knockdown, rnai, condition, lead, comparison };
}

/** The control, then one condition per stated concentration (or the one test condition). */
function qpcrConditions(
  extraction: Extraction,
  treatment: QpcrTreatment,
  targetNames: readonly string[],
): { name: string; description: string }[] {
  const { compound, knockdown, rnai, condition, agentPhrase } = treatment;
  const conditionConcentrations = unique(
    extraction.concentrations
      .filter((q) => MOLAR.test(q.unit) || MASS_PER_VOLUME.test(q.unit))
      .map((q) => quantity(q.value, q.unit)),
  ).slice(0, 4);
  return [
    compound
      ? { name: "vehicle", description: "solvent only" }
      : knockdown
        ? { name: "non-targeting control", description: `non-targeting ${rnai ?? "si"}RNA` }
        : { name: "control", description: condition ? `without ${condition}` : "reference condition" },
    ...(compound && conditionConcentrations.length > 0
      ? conditionConcentrations.map((c) => ({
          name: `treated ${c}`,
          description: `${compound.name} at ${c}`,
        }))
      : [
          {
            name: compound ? "treated" : knockdown ? "knockdown" : condition ? condition : "test",
            description: compound
              ? agentPhrase
              : knockdown
                ? `${targetNames[0]}-targeting ${rnai ?? "si"}RNA`
                : (condition ?? "test condition"),
          },
        ]),
  ];
}

/** Each target's fold change in the stated direction, and the amplification efficiency. */
function qpcrSuccessConditions(
  targetNames: readonly string[],
  direction: ReturnType<typeof directionOf>,
  foldValue: number,
  refsText: string,
): SuccessCondition[] {
  return [
    ...targetNames.slice(0, 5).map((gene): SuccessCondition =>
      direction === "down"
        ? {
            metric: `${gene} fold change`,
            operator: "lte",
            threshold: round3(1 / foldValue),
            unit: "fold",
            description: `ΔΔCq, ${refsText.replace(" (ΔΔCq)", "")}.`,
          }
        : direction === "up"
          ? {
              metric: `${gene} fold change`,
              operator: "gte",
              threshold: foldValue,
              unit: "fold",
              description: `ΔΔCq, ${refsText.replace(" (ΔΔCq)", "")}.`,
            }
          : {
              metric: `${gene} fold change`,
              operator: "not_between",
              threshold: { min: round3(1 / foldValue), max: foldValue },
              unit: "fold",
              description: `ΔΔCq, ${refsText.replace(" (ΔΔCq)", "")}.`,
            },
    ),
    {
      metric: "amplification efficiency",
      operator: "between",
      threshold: { min: 90, max: 110 },
      unit: "%",
      description: "From a 5-point dilution standard curve.",
    },
  ];
}

function qpcrFailureConditions(): TypeDraft["failureConditions"] {
  return [
    {
      condition: "No-template control (NTC) amplifies before Cq 35",
      interpretation: "Contamination; the plate is rerun.",
    },
    {
      condition: "No-RT control amplifies close to its sample",
      interpretation: "Genomic DNA; DNase treatment and rerun.",
    },
    {
      condition: "RNA integrity (RIN) below 7 or A260/280 far from 2.0",
      interpretation: "Sample quality too low; re-extract.",
    },
  ];
}

// Sanger -----------------------------------------------------------------------------------------

/** Plasmid-name suffixes that name an insert: reporters, human genes ("hACE2"), shRNAs. */
const INSERT_NAME =
  /^(?:e?GFP|mCherry|[tm]?RFP|tdTomato|[EY]?YFP|CFP|mNeonGreen|luc\d?|Luc\d?|FLuc|NLuc|h[A-Z][A-Z0-9]{1,9}|sh[A-Z][A-Za-z0-9]{1,10}|[A-Z][A-Z0-9]{2,9})$/;

const DEFAULT_PRIMERS: [RegExp, string[]][] = [
  [/^pX\d/, ["U6 forward"]],
  [/^p(?:UC|Bluescript|BS|GEM|JET)/, ["M13F(-20)", "M13R"]],
  [/^pET/, ["T7 promoter", "T7 terminator"]],
  [/^pcDNA/, ["CMV forward", "BGH reverse"]],
  [/^pGEX/, ["pGEX 5'", "pGEX 3'"]],
  [/^pLKO/, ["LKO.1 5'"]],
];

/** What the query says about the construct to sequence. */
interface SangerTemplate {
  plasmid: Extraction["plasmids"][number] | undefined;
  pcrProduct: boolean;
  templateType: "pcr_product" | "genomic" | "plasmid";
  insertGene: string | undefined;
  insertSize: number | undefined;
  mutation: string | undefined;
  /** Primers named in the query, else the vector's usual ones. */
  primersNamed: string[];
}

function readSangerTemplate(input: DraftInput): SangerTemplate {
  const { text, extraction } = input;
  const plasmid = extraction.plasmids[0];
  const pcrProduct = /\bPCR products?\b|\bamplicons?\b/i.test(text) && !plasmid;
  const templateType = pcrProduct
    ? "pcr_product"
    : /\bgenomic\b/i.test(text) && !plasmid
      ? "genomic"
      : "plasmid";
  const suffix = plasmid ? /-([A-Za-z0-9]+)$/.exec(plasmid.name)?.[1] : undefined;
  const insertGene = extraction.genes[0]?.name ?? (suffix && INSERT_NAME.test(suffix) ? suffix : undefined);
  const sizes = extraction.sizes.map((s) =>
    s.unit === "kb" ? Math.round(s.value * 1000) : Math.round(s.value),
  );
  const insertSize = sizes.find((s) => s >= 20 && s <= 20000);
  const mutation = extraction.mutations[0];
  const primersNamed =
    extraction.primers.length > 0
      ? extraction.primers
      : (DEFAULT_PRIMERS.find(([p]) => plasmid && p.test(plasmid.name))?.[1] ?? []);
  return { plasmid, pcrProduct, templateType, insertGene, insertSize, mutation, primersNamed };
}

function sangerNotes(template: SangerTemplate, primersGuessed: boolean, primerCount: number): string[] {
  const notes: string[] = [];
  if (primersGuessed && primerCount > 0)
    notes.push(
      `Primers ${prose(template.primersNamed)} are the vector's usual sequencing primers: check they flank the insert.`,
    );
  if (primerCount === 0)
    notes.push("No primers were named: list sanger.primers (both strands across the insert).");
  if (template.insertSize !== undefined && template.insertSize > 800)
    notes.push("An insert over about 800 bp needs internal primers besides the flanking ones.");
  notes.push("Attach the reference map (GenBank/SnapGene) and set sanger.reference_sequence_attached.");
  if (!template.plasmid && template.templateType === "plasmid")
    notes.push("No plasmid name was recognised: name the construct in the title.");
  return notes;
}

function sangerHypothesis(template: SangerTemplate): { statement: string; nullHypothesis: string } {
  const { plasmid, pcrProduct, insertGene, insertSize, mutation } = template;
  const construct = plasmid
    ? `The ${plasmid.name} clone`
    : pcrProduct
      ? "The PCR product"
      : "The plasmid clone";
  const insert = pcrProduct
    ? `the expected ${insertGene ? `${insertGene} ` : ""}sequence`
    : insertGene
      ? `the ${insertGene} insert`
      : "the expected insert";
  const sizeText =
    insertSize !== undefined
      ? ` (${insertSize >= 1000 ? `${num(insertSize / 1000)} kb` : `${insertSize} bp`})`
      : "";
  const mutationText = mutation ? `, including the intended ${mutation} change,` : "";
  const statement = `${construct} carries ${insert}${sizeText}${mutationText} with 100% identity over ${pcrProduct ? "its length" : "the insert"} when compared with the reference sequence, read on both strands at QV 20 or higher.`;
  const nullHypothesis = `${construct} does not carry ${insert}${sizeText} with 100% identity to the reference: at least one mismatch, insertion or deletion${mutation ? `, or the missing ${mutation} change,` : ""} is found over ${pcrProduct ? "its length" : "the insert, or the insert is absent"}.`;
  return { statement, nullHypothesis };
}

export function draftSanger(input: DraftInput): TypeDraft {
  const template = readSangerTemplate(input);
  const { plasmid, pcrProduct, templateType, insertGene, insertSize, mutation } = template;
  const primers = template.primersNamed
    .slice(0, 10)
    .map((name) => ({ name: clampText(name, 100), provided_by: "operator" }));
  const notes = sangerNotes(template, input.extraction.primers.length === 0, primers.length);
  const { statement, nullHypothesis } = sangerHypothesis(template);
  return {
    title: `Sanger verification of ${plasmid ? plasmid.name : pcrProduct ? "a PCR product" : "a plasmid construct"}${insertGene ? ` (${insertGene} insert)` : ""}`,
    statement,
    nullHypothesis,
    criterion: { source: "standard", text: "100% identity over the insert at QV >= 20 on both strands" },
    sections: {
      sanger: {
        template_type: templateType,
        primers,
        ...(insertSize !== undefined ? { expected_insert_size_bp: insertSize } : {}),
        reference_sequence_attached: false,
      },
    },
    successConditions: [
      {
        metric: "identity to reference over the insert",
        operator: "eq",
        threshold: 100,
        unit: "%",
        description: "Alignment of both strands against the reference map.",
      },
      {
        metric: "QV20 coverage of the insert",
        operator: "gte",
        threshold: 100,
        unit: "%",
        description: "Every base of the insert read at QV >= 20.",
      },
    ],
    failureConditions: [
      {
        condition: "Reads of QV below 20 over part of the insert",
        interpretation: "Inconclusive; the lab resequences with an additional primer.",
      },
    ],
    rawDataFormats: ["AB1", "SEQ"],
    processedOutputs: ["ALIGNMENT_VS_REFERENCE", ...(mutation ? ["VARIANT_CALLS"] : []), "QC_SUMMARY"],
    packageLevel: "L1_BASIC_QC",
    materials: [
      {
        name: plasmid ? `${plasmid.name} miniprep` : pcrProduct ? "Purified PCR product" : "Plasmid miniprep",
        specification: "state the concentration (ng/µL) and volume",
        provided_by_requester: true,
      },
    ],
    notes,
    searchKeywords: "plasmid sequence verification",
  };
}
