/**
 * The protocol-template catalogue: standard method outlines per experiment type.
 *
 * Steps follow the published standard methods summarised in
 * docs/assay-notes.md §5 and §7 (CLSI M07 broth microdilution,
 * M02 disk diffusion, ATP-luminescence and MTT viability, MIQE-style RT-qPCR, kinetic growth
 * curves, dye-terminator Sanger sequencing). Materials are generic specifications, never vendor
 * catalogue numbers. Cost bands sit inside the market price bands of
 * docs/intake-model.md (CUSTOM has no band; its templates carry their own).
 *
 * Versioning: the id carries the major version ("-v1"); `version` is the full semantic version.
 * A change that alters parameters or results makes a new id ("-v2"); wording fixes bump
 * minor/patch in place. Old ids stay in the catalogue so stored requests keep resolving.
 */
import type { BslLevelName, ExperimentTypeName } from "@petri/contracts/vocabulary";
import type {
  BooleanParameter,
  EnumParameter,
  NumberParameter,
  ProtocolTemplate,
  StringParameter,
  TemplateCategory,
  TemplateMaterial,
  TemplateParameter,
} from "./types.js";

interface Opts<T> {
  default?: T;
  required?: boolean;
  unit?: string;
}

/** Builds a parameter with a stable key order and without undefined keys. */
function param<P extends TemplateParameter>(fields: Record<string, unknown>): P {
  const order = ["name", "type", "required", "default", "description", "unit", "minimum", "maximum"];
  const out: Record<string, unknown> = {};
  for (const key of [...order, ...Object.keys(fields)]) {
    if (fields[key] !== undefined && !(key in out)) out[key] = fields[key];
  }
  return out as P;
}

type Bounds = { minimum?: number; maximum?: number };

const number = (name: string, description: string, o: Opts<number> & Bounds): NumberParameter =>
  param({ name, type: "number", description, ...o, required: o.required ?? false });

const integer = (name: string, description: string, o: Opts<number> & Bounds): NumberParameter =>
  param({ name, type: "integer", description, ...o, required: o.required ?? false });

const boolean = (name: string, description: string, o: Opts<boolean>): BooleanParameter =>
  param({ name, type: "boolean", description, ...o, required: o.required ?? false });

const choice = (
  name: string,
  description: string,
  allowed_values: readonly string[],
  o: Opts<string>,
): EnumParameter =>
  param({ name, type: "enum", description, allowed_values, ...o, required: o.required ?? false });

const text = (
  name: string,
  description: string,
  o: Opts<string> & { max_length?: number },
): StringParameter =>
  param({
    name,
    type: "string",
    description,
    ...o,
    required: o.required ?? false,
    max_length: o.max_length ?? 200,
  });

interface TemplateSpec {
  id: string;
  name: string;
  description: string;
  category: TemplateCategory;
  bsl_level: BslLevelName;
  version: string;
  experiment_type: ExperimentTypeName;
  parameters: TemplateParameter[];
  equipment_required: string[];
  typical_materials: TemplateMaterial[];
  estimated_cost_usd: { low: number; high: number };
  /** [action, wall-clock minutes]; numbered from 1 in order. */
  steps: Array<[string, number]>;
}

function define(spec: TemplateSpec): ProtocolTemplate {
  const { steps, ...rest } = spec;
  const protocol_steps = steps.map(([action, duration_minutes], i) => ({
    step: i + 1,
    action,
    duration_minutes,
  }));
  const minutes = protocol_steps.reduce((sum, s) => sum + s.duration_minutes, 0);
  return { ...rest, estimated_duration_hours: Math.ceil(minutes / 60), protocol_steps };
}

// Parameters shared by several templates.
const numberOfConcentrations = (dflt: number, minimum: number, maximum: number) =>
  integer(
    "number_of_concentrations",
    "Concentrations in the dilution series, vehicle and controls excluded.",
    {
      required: true,
      default: dflt,
      minimum,
      maximum,
    },
  );
const dilutionSeries = (dflt: string) =>
  choice("dilution_series", "Spacing of the dilution series.", ["2-fold", "3-fold", "half-log"], {
    required: true,
    default: dflt,
  });
const plateFormat = choice("plate_format", "Microplate format.", ["96-well", "384-well"], {
  required: true,
  default: "96-well",
});
const minPhredQuality = integer(
  "min_phred_quality",
  "Quality value a base must reach to count as verified (QV 20 = 1% error).",
  { default: 20, minimum: 10, maximum: 40 },
);
const readDirection = choice(
  "read_direction",
  "Reads per template: forward, reverse, or both strands across the region of interest.",
  ["forward", "reverse", "both"],
  { required: true, default: "both" },
);
const qcStrain = (dflt: string) =>
  choice(
    "qc_strain",
    "CLSI quality-control strain run with a reference drug alongside the test strain.",
    [
      "Escherichia coli ATCC 25922",
      "Staphylococcus aureus ATCC 29213",
      "Pseudomonas aeruginosa ATCC 27853",
      "Enterococcus faecalis ATCC 29212",
    ],
    { default: dflt },
  );
const rtQpcrParameters = [
  choice(
    "starting_material",
    "What the requester ships: total RNA (the lab runs RT) or cDNA.",
    ["RNA", "cDNA"],
    {
      required: true,
      default: "RNA",
    },
  ),
  integer("rna_input_ng", "Total RNA per reverse-transcription reaction (equal for every sample).", {
    default: 500,
    minimum: 10,
    maximum: 2000,
    unit: "ng",
  }),
  number("reaction_volume_ul", "qPCR reaction volume.", {
    required: true,
    default: 20,
    minimum: 5,
    maximum: 50,
    unit: "uL",
  }),
  integer("cycles", "Amplification cycles.", { required: true, default: 40, minimum: 30, maximum: 50 }),
  boolean("no_rt_control", "Include a no-reverse-transcriptase control per sample.", { default: true }),
  boolean("efficiency_standard_curve", "Run a 5-point 10-fold dilution standard curve per assay.", {
    default: true,
  }),
  choice(
    "quantification_method",
    "Relative quantification: delta-delta Cq (similar efficiencies) or efficiency-corrected (Pfaffl).",
    ["delta_delta_cq", "pfaffl"],
    { required: true, default: "delta_delta_cq" },
  ),
  plateFormat,
];

const BSC = "Class II biological safety cabinet";

export const TEMPLATE_CATALOGUE: readonly ProtocolTemplate[] = [
  // ---------------------------------------------------------------- SANGER_PLASMID_VERIFICATION
  define({
    id: "sanger-plasmid-verification-v1",
    name: "Sanger sequencing verification of a plasmid",
    description:
      "Dye-terminator Sanger sequencing of a purified plasmid with universal or supplied primers; reads are " +
      "quality-trimmed, assembled and aligned to the reference map to confirm insert, junctions and regions of interest.",
    category: "molecular_biology",
    bsl_level: "BSL-1",
    version: "1.0.0",
    experiment_type: "SANGER_PLASMID_VERIFICATION",
    parameters: [
      readDirection,
      choice(
        "primer_source",
        "Universal vector primers from the lab, or primers supplied by the requester.",
        ["operator_universal", "requester_supplied"],
        { default: "operator_universal" },
      ),
      number("template_concentration_ng_ul", "Plasmid concentration as shipped.", {
        default: 100,
        minimum: 20,
        maximum: 1000,
        unit: "ng/uL",
      }),
      minPhredQuality,
      boolean("report_variants", "List mismatches, insertions and deletions against the reference.", {
        default: true,
      }),
    ],
    equipment_required: [
      "capillary electrophoresis DNA analyzer",
      "thermal cycler",
      "microvolume UV-Vis spectrophotometer",
      "microcentrifuge",
    ],
    typical_materials: [
      { name: "Cycle sequencing chemistry", catalog: "fluorescent dye-terminator cycle sequencing kit" },
      { name: "Sequencing primers", catalog: "universal vector primers (e.g. M13, T7) or requester primers" },
      {
        name: "Reaction cleanup",
        catalog: "ethanol/EDTA precipitation or magnetic-bead dye-terminator removal",
      },
      { name: "Loading solvent", catalog: "highly deionised formamide" },
      { name: "Water", catalog: "nuclease-free water" },
    ],
    estimated_cost_usd: { low: 50, high: 150 },
    steps: [
      [
        "Log the sample; check concentration and purity (A260/280 about 1.8) by microvolume spectrophotometry.",
        15,
      ],
      ["Set up one sequencing reaction per read: plasmid template, primer and dye-terminator mix.", 30],
      ["Cycle sequencing: 96 °C 1 min, then 25 cycles of 96 °C 10 s, 50 °C 5 s, 60 °C 4 min.", 150],
      ["Remove unincorporated dye terminators and resuspend the products in formamide.", 45],
      ["Capillary electrophoresis on the DNA analyzer.", 120],
      ["Base calling and quality trimming; assemble forward and reverse reads.", 30],
      ["Align the consensus to the reference map; confirm insert and junctions; list variants.", 45],
    ],
  }),
  define({
    id: "sanger-pcr-amplicon-sequencing-v1",
    name: "Sanger sequencing of a PCR amplicon",
    description:
      "Gel check and enzymatic cleanup of a PCR product followed by dye-terminator Sanger sequencing from the " +
      "amplification primers; reads are aligned to the expected sequence.",
    category: "molecular_biology",
    bsl_level: "BSL-1",
    version: "1.0.0",
    experiment_type: "SANGER_PLASMID_VERIFICATION",
    parameters: [
      readDirection,
      integer("amplicon_size_bp", "Expected amplicon length.", {
        required: true,
        default: 700,
        minimum: 100,
        maximum: 2000,
        unit: "bp",
      }),
      choice(
        "cleanup_method",
        "How the PCR product is cleaned before sequencing.",
        ["enzymatic", "column", "bead"],
        {
          default: "enzymatic",
        },
      ),
      minPhredQuality,
    ],
    equipment_required: [
      "capillary electrophoresis DNA analyzer",
      "thermal cycler",
      "horizontal gel electrophoresis system",
      "gel imager",
    ],
    typical_materials: [
      { name: "PCR cleanup", catalog: "exonuclease I and alkaline phosphatase mix, or silica spin columns" },
      { name: "Cycle sequencing chemistry", catalog: "fluorescent dye-terminator cycle sequencing kit" },
      { name: "Agarose", catalog: "molecular-biology grade agarose" },
      { name: "DNA ladder", catalog: "100 bp to 1 kb DNA size ladder" },
      { name: "Loading solvent", catalog: "highly deionised formamide" },
    ],
    estimated_cost_usd: { low: 60, high: 150 },
    steps: [
      ["Run an aliquot on an agarose gel: a single band of the expected size.", 60],
      ["Clean up the product (exonuclease/phosphatase 37 °C 15 min, 80 °C 15 min, or column).", 45],
      ["Set up one sequencing reaction per read with the amplification primers.", 30],
      ["Cycle sequencing: 96 °C 1 min, then 25 cycles of 96 °C 10 s, 50 °C 5 s, 60 °C 4 min.", 150],
      ["Remove unincorporated dye terminators and resuspend the products in formamide.", 45],
      ["Capillary electrophoresis on the DNA analyzer.", 120],
      ["Trim, assemble and align the reads to the expected sequence; report discrepancies.", 45],
    ],
  }),
  // --------------------------------------------------------------------------- QPCR_EXPRESSION
  define({
    id: "qpcr-sybr-relative-expression-v1",
    name: "RT-qPCR relative expression (SYBR Green)",
    description:
      "Reverse transcription and SYBR Green qPCR in technical triplicate with at least two reference genes, " +
      "no-template and no-RT controls, efficiency standard curves and melt curves; fold change by delta-delta Cq.",
    category: "molecular_biology",
    bsl_level: "BSL-1",
    version: "1.0.0",
    experiment_type: "QPCR_EXPRESSION",
    parameters: [
      ...rtQpcrParameters,
      integer("primer_final_concentration_nm", "Final concentration of each primer.", {
        default: 400,
        minimum: 100,
        maximum: 900,
        unit: "nM",
      }),
      number("annealing_temperature_c", "Combined annealing/extension temperature.", {
        required: true,
        default: 60,
        minimum: 55,
        maximum: 65,
        unit: "°C",
      }),
      boolean("melt_curve", "Run a melt curve after amplification (single peak expected).", {
        default: true,
      }),
    ],
    equipment_required: [
      "real-time PCR instrument with melt-curve capability",
      "thermal cycler",
      "microvolume UV-Vis spectrophotometer",
      "plate centrifuge",
      "PCR workstation",
    ],
    typical_materials: [
      {
        name: "qPCR master mix",
        catalog: "2x SYBR Green qPCR master mix (with passive reference dye if required)",
      },
      {
        name: "Reverse transcription",
        catalog: "cDNA synthesis kit with RNase inhibitor, random/oligo-dT priming",
      },
      { name: "gDNA removal", catalog: "RNase-free DNase I or genomic DNA removal reagent" },
      { name: "Primers", catalog: "gene-specific primer pairs, 70-200 bp amplicons, desalted" },
      { name: "Plates", catalog: "96-well PCR plates with optical adhesive seals" },
      { name: "Water", catalog: "nuclease-free water" },
    ],
    estimated_cost_usd: { low: 200, high: 500 },
    steps: [
      [
        "RNA QC: concentration and purity (A260/280 about 2.0); integrity (RIN at least 7) where measurable.",
        60,
      ],
      [
        "Remove genomic DNA and reverse-transcribe equal RNA input per sample, with a no-RT control each.",
        90,
      ],
      ["Prepare a 5-point 10-fold cDNA dilution series per primer pair for efficiency.", 30],
      [
        "Plate setup: master mix, primers, cDNA in technical triplicate; a no-template control per primer pair.",
        60,
      ],
      ["Seal with optical film and spin at 1000 x g for 1 min.", 5],
      [
        "Run 95 °C 2 min; 40 cycles of 95 °C 15 s and 60 °C 1 min with read; melt 65-95 °C in 0.5 °C steps.",
        100,
      ],
      ["Call Cq; check efficiency (90-110%), melt peaks and controls; compute fold change with SD.", 90],
    ],
  }),
  define({
    id: "qpcr-probe-relative-expression-v1",
    name: "RT-qPCR relative expression (hydrolysis probe)",
    description:
      "Reverse transcription and hydrolysis-probe qPCR (FAM target, optional VIC/HEX reference in duplex) in " +
      "technical triplicate with reference genes, no-template and no-RT controls; fold change by delta-delta Cq.",
    category: "molecular_biology",
    bsl_level: "BSL-1",
    version: "1.0.0",
    experiment_type: "QPCR_EXPRESSION",
    parameters: [
      ...rtQpcrParameters,
      boolean("duplex", "Run target and reference gene in the same well (different dyes).", {
        default: false,
      }),
    ],
    equipment_required: [
      "real-time PCR instrument (FAM and VIC/HEX channels)",
      "thermal cycler",
      "microvolume UV-Vis spectrophotometer",
      "plate centrifuge",
      "PCR workstation",
    ],
    typical_materials: [
      { name: "qPCR master mix", catalog: "2x hydrolysis-probe qPCR master mix" },
      { name: "Assays", catalog: "primer/probe sets: FAM-labelled targets, VIC/HEX-labelled references" },
      { name: "Reverse transcription", catalog: "cDNA synthesis kit with RNase inhibitor" },
      { name: "Plates", catalog: "96-well PCR plates with optical adhesive seals" },
      { name: "Water", catalog: "nuclease-free water" },
    ],
    estimated_cost_usd: { low: 250, high: 500 },
    steps: [
      [
        "RNA QC: concentration and purity (A260/280 about 2.0); integrity (RIN at least 7) where measurable.",
        60,
      ],
      [
        "Remove genomic DNA and reverse-transcribe equal RNA input per sample, with a no-RT control each.",
        90,
      ],
      ["Prepare a 5-point 10-fold cDNA dilution series per assay for efficiency.", 30],
      ["Plate setup: master mix, assay, cDNA in technical triplicate; a no-template control per assay.", 60],
      ["Seal with optical film and spin at 1000 x g for 1 min.", 5],
      ["Run 95 °C 10 min; 40 cycles of 95 °C 15 s and 60 °C 1 min with read.", 90],
      ["Call Cq; check efficiency (90-110%) and controls; compute fold change with SD.", 90],
    ],
  }),
  // ----------------------------------------------------------------------- CELL_VIABILITY_IC50
  define({
    id: "cell-viability-luminescent-ic50-v1",
    name: "Cell viability IC50 (ATP luminescence)",
    description:
      "Dose-response of a compound on an adherent cell line read with an ATP-based luminescent viability reagent " +
      "in white opaque plates; vehicle, kill and no-cell controls, Z' and a 4-parameter logistic IC50 fit.",
    category: "cell_biology",
    bsl_level: "BSL-2",
    version: "1.0.0",
    experiment_type: "CELL_VIABILITY_IC50",
    parameters: [
      plateFormat,
      integer("seeding_density_cells_per_well", "Cells seeded per well.", {
        required: true,
        default: 5000,
        minimum: 500,
        maximum: 50000,
        unit: "cells/well",
      }),
      number("attachment_hours", "Time between seeding and compound addition.", {
        default: 24,
        minimum: 4,
        maximum: 48,
        unit: "hours",
      }),
      numberOfConcentrations(10, 5, 24),
      dilutionSeries("3-fold"),
      number("exposure_time_hours", "Compound exposure before the read.", {
        required: true,
        default: 72,
        minimum: 1,
        maximum: 168,
        unit: "hours",
      }),
      number("max_dmso_percent", "Final DMSO in every well (vehicle matched).", {
        default: 0.5,
        minimum: 0,
        maximum: 1,
        unit: "%",
      }),
      boolean("include_z_factor", "Report Z' from vehicle and kill-control wells.", { default: true }),
      boolean("edge_wells_as_moat", "Fill outer wells with medium only to limit edge effects.", {
        default: true,
      }),
      choice("curve_model", "Dose-response model.", ["4PL", "3PL"], { default: "4PL" }),
    ],
    equipment_required: [
      BSC,
      "CO2 incubator (37 °C, 5% CO2)",
      "luminescence plate reader",
      "automated cell counter or haemocytometer",
      "multichannel pipettes or automated liquid handler",
      "orbital plate shaker",
    ],
    typical_materials: [
      { name: "Viability reagent", catalog: "ATP-based luminescent cell viability reagent" },
      { name: "Assay plates", catalog: "white opaque tissue-culture-treated 96- or 384-well plates" },
      { name: "Growth medium", catalog: "complete medium recommended for the cell line" },
      { name: "Vehicle", catalog: "cell-culture grade DMSO" },
      { name: "Dissociation reagent", catalog: "trypsin-EDTA" },
      { name: "Kill control", catalog: "cytotoxic reference compound at a fully lethal concentration" },
    ],
    estimated_cost_usd: { low: 300, high: 800 },
    steps: [
      ["Expand cells; check viability (at least 90% by trypan blue) and count.", 60],
      ["Seed cells into the inner wells of white opaque plates; fill edge wells with medium.", 45],
      ["Incubate for attachment at 37 °C, 5% CO2.", 1440],
      [
        "Prepare the dilution series at 10x in medium with constant DMSO; vehicle, kill and no-cell controls.",
        60,
      ],
      ["Add compound dilutions, technical triplicate per concentration.", 30],
      ["Expose at 37 °C, 5% CO2.", 4320],
      ["Equilibrate plates to room temperature.", 30],
      ["Add luminescent reagent equal to the medium volume; shake 2 min; incubate 10 min.", 15],
      ["Read luminescence (1 s integration).", 15],
      ["Normalise to vehicle and kill control; Z'; 4PL fit with IC50, 95% CI, Hill slope and R².", 90],
    ],
  }),
  define({
    id: "cell-viability-mtt-ic50-v1",
    name: "Cell viability IC50 (MTT colorimetric)",
    description:
      "Dose-response of a compound on an adherent cell line read by MTT reduction to formazan, solubilised and " +
      "read at 570 nm; vehicle, kill and no-cell controls and a 4-parameter logistic IC50 fit.",
    category: "cell_biology",
    bsl_level: "BSL-2",
    version: "1.0.0",
    experiment_type: "CELL_VIABILITY_IC50",
    parameters: [
      integer("seeding_density_cells_per_well", "Cells seeded per well.", {
        required: true,
        default: 5000,
        minimum: 1000,
        maximum: 50000,
        unit: "cells/well",
      }),
      numberOfConcentrations(10, 5, 24),
      dilutionSeries("3-fold"),
      number("exposure_time_hours", "Compound exposure before MTT addition.", {
        required: true,
        default: 72,
        minimum: 1,
        maximum: 168,
        unit: "hours",
      }),
      number("mtt_incubation_hours", "Incubation with MTT (0.5 mg/mL final).", {
        default: 3,
        minimum: 1,
        maximum: 4,
        unit: "hours",
      }),
      number("max_dmso_percent", "Final DMSO in every well (vehicle matched).", {
        default: 0.5,
        minimum: 0,
        maximum: 1,
        unit: "%",
      }),
      choice("curve_model", "Dose-response model.", ["4PL", "3PL"], { default: "4PL" }),
    ],
    equipment_required: [
      BSC,
      "CO2 incubator (37 °C, 5% CO2)",
      "absorbance plate reader (570 nm, reference 630-690 nm)",
      "automated cell counter or haemocytometer",
      "multichannel pipettes",
    ],
    typical_materials: [
      {
        name: "MTT",
        catalog: "3-(4,5-dimethylthiazol-2-yl)-2,5-diphenyltetrazolium bromide, 5 mg/mL in PBS",
      },
      { name: "Solubilisation", catalog: "DMSO or acidified SDS solution" },
      { name: "Assay plates", catalog: "clear flat-bottom tissue-culture-treated 96-well plates" },
      { name: "Growth medium", catalog: "complete medium recommended for the cell line" },
      { name: "Vehicle", catalog: "cell-culture grade DMSO" },
    ],
    estimated_cost_usd: { low: 300, high: 700 },
    steps: [
      ["Expand cells; check viability (at least 90% by trypan blue) and count.", 60],
      ["Seed cells into the inner wells of clear plates; fill edge wells with medium.", 45],
      ["Incubate for attachment at 37 °C, 5% CO2.", 1440],
      [
        "Prepare the dilution series at 10x in medium with constant DMSO; vehicle, kill and no-cell controls.",
        60,
      ],
      ["Add compound dilutions, technical triplicate per concentration.", 30],
      ["Expose at 37 °C, 5% CO2.", 4320],
      ["Add MTT to 0.5 mg/mL and incubate at 37 °C.", 180],
      ["Remove medium; dissolve formazan in solubilisation solution with 10 min shaking.", 20],
      ["Read absorbance at 570 nm with a 630-690 nm reference.", 15],
      [
        "Blank-subtract, normalise to vehicle and kill control; 4PL fit with IC50, 95% CI and Hill slope.",
        90,
      ],
    ],
  }),
  // -------------------------------------------------------------------- ENZYME_INHIBITION_IC50
  define({
    id: "enzyme-inhibition-ic50-v1",
    name: "Enzyme inhibition IC50 (plate reader)",
    description:
      "Initial-rate enzyme assay with an inhibitor dilution series, substrate near Km and pre-incubation; " +
      "vehicle, reference-inhibitor and no-enzyme controls, 4-parameter logistic IC50 and optional Cheng-Prusoff Ki.",
    category: "biochemistry",
    bsl_level: "BSL-1",
    version: "1.0.0",
    experiment_type: "ENZYME_INHIBITION_IC50",
    parameters: [
      choice(
        "detection_mode",
        "Readout of product formation.",
        ["absorbance", "fluorescence", "luminescence"],
        {
          required: true,
          default: "fluorescence",
        },
      ),
      choice(
        "read_mode",
        "Kinetic reads give initial rates; endpoint needs a stopped reaction.",
        ["kinetic", "endpoint"],
        {
          required: true,
          default: "kinetic",
        },
      ),
      plateFormat,
      numberOfConcentrations(10, 5, 24),
      dilutionSeries("3-fold"),
      integer("pre_incubation_minutes", "Enzyme-inhibitor pre-incubation before substrate.", {
        default: 15,
        minimum: 0,
        maximum: 120,
        unit: "minutes",
      }),
      integer("reaction_time_minutes", "Read window after substrate addition.", {
        required: true,
        default: 30,
        minimum: 1,
        maximum: 240,
        unit: "minutes",
      }),
      number("temperature_c", "Assay temperature.", {
        required: true,
        default: 25,
        minimum: 20,
        maximum: 40,
        unit: "°C",
      }),
      number("substrate_concentration_x_km", "Substrate concentration as a multiple of Km.", {
        default: 1,
        minimum: 0.1,
        maximum: 10,
        unit: "x Km",
      }),
      number("max_dmso_percent", "Final DMSO in every well (vehicle matched).", {
        default: 1,
        minimum: 0,
        maximum: 5,
        unit: "%",
      }),
      boolean("compute_ki", "Convert IC50 to Ki with Cheng-Prusoff (needs Km and the mechanism).", {
        default: false,
      }),
    ],
    equipment_required: [
      "multimode plate reader with kinetic mode and temperature control",
      "multichannel pipettes or automated liquid handler",
      "plate centrifuge",
    ],
    typical_materials: [
      {
        name: "Assay plates",
        catalog: "black (fluorescence), clear (absorbance) or white (luminescence) low-binding microplates",
      },
      {
        name: "Assay buffer",
        catalog: "buffer specified by the requester or the enzyme's standard assay buffer",
      },
      { name: "Vehicle", catalog: "anhydrous molecular-biology grade DMSO" },
      {
        name: "Reference inhibitor",
        catalog: "known inhibitor of the target at a fully inhibiting concentration",
      },
    ],
    estimated_cost_usd: { low: 200, high: 600 },
    steps: [
      ["Prepare assay buffer, enzyme working solution (well below the expected IC50) and substrate.", 45],
      ["Prepare the inhibitor dilution series in DMSO, then dilute into buffer at constant DMSO.", 45],
      ["Dispense inhibitor, vehicle, reference inhibitor and no-enzyme blanks in technical triplicate.", 30],
      ["Add enzyme and pre-incubate at the assay temperature.", 15],
      ["Start the reaction with substrate.", 10],
      ["Read product formation in the initial-rate regime (at most 10-15% substrate conversion).", 30],
      [
        "Compute initial rates and % inhibition; 4PL fit with IC50, 95% CI and Hill slope; Ki if requested.",
        60,
      ],
    ],
  }),
  // ------------------------------------------------------------------- MICROBIAL_GROWTH_MATRIX
  define({
    id: "microbial-growth-curve-matrix-v1",
    name: "Microbial growth curves across a condition matrix",
    description:
      "Kinetic OD600 growth curves of one strain across a matrix of media or conditions in a temperature-controlled " +
      "plate reader with shaking; blank-subtracted curves fitted for growth rate, lag time and maximum OD.",
    category: "microbiology",
    bsl_level: "BSL-1",
    version: "1.0.0",
    experiment_type: "MICROBIAL_GROWTH_MATRIX",
    parameters: [
      integer("read_interval_minutes", "Time between OD reads.", {
        required: true,
        default: 15,
        minimum: 5,
        maximum: 60,
        unit: "minutes",
      }),
      number("total_duration_hours", "Length of the kinetic run.", {
        required: true,
        default: 24,
        minimum: 4,
        maximum: 72,
        unit: "hours",
      }),
      number("temperature_c", "Incubation temperature.", {
        required: true,
        default: 37,
        minimum: 20,
        maximum: 45,
        unit: "°C",
      }),
      choice("shaking", "Shaking between reads.", ["continuous_orbital", "intermittent", "none"], {
        default: "continuous_orbital",
      }),
      integer("well_volume_ul", "Culture volume per well.", {
        default: 200,
        minimum: 100,
        maximum: 300,
        unit: "uL",
      }),
      number("starting_od600", "OD600 after inoculation.", { default: 0.01, minimum: 0.001, maximum: 0.2 }),
      integer("wavelength_nm", "Optical density wavelength.", {
        default: 600,
        minimum: 420,
        maximum: 700,
        unit: "nm",
      }),
      choice(
        "evaporation_control",
        "How evaporation is limited.",
        ["lid", "breathable_seal", "lid_with_moat"],
        {
          default: "lid",
        },
      ),
      choice("growth_model", "Curve model for growth parameters.", ["logistic", "gompertz", "model_free"], {
        default: "gompertz",
      }),
    ],
    equipment_required: [
      "absorbance plate reader with temperature control, shaking and kinetic mode",
      "shaking incubator",
      "spectrophotometer (OD600)",
      "microbiological safety cabinet or clean bench",
    ],
    typical_materials: [
      { name: "Base medium", catalog: "medium specified by the requester (e.g. LB, M9 minimal, TSB)" },
      { name: "Plates", catalog: "sterile clear flat-bottom 96-well plates with lids" },
      { name: "Agar plates", catalog: "non-selective agar for the organism" },
      { name: "Condition stocks", catalog: "sterile-filtered supplements or stressors for the matrix" },
    ],
    estimated_cost_usd: { low: 150, high: 400 },
    steps: [
      ["Streak the strain from stock onto agar and incubate overnight.", 1080],
      ["Inoculate an overnight preculture in base medium from a single colony.", 960],
      [
        "Prepare condition-matrix media in the plate (each condition in at least 3 wells) and medium-only blanks.",
        60,
      ],
      ["Dilute the preculture to the starting OD600 and inoculate the wells.", 30],
      ["Kinetic OD600 reads at the set interval with shaking at the set temperature.", 1440],
      ["Blank-subtract; fit growth rate, lag time and maximum OD per well; mean and SD per condition.", 60],
    ],
  }),
  // ------------------------------------------------------------------------------ MIC_MBC_ASSAY
  define({
    id: "mic-broth-microdilution-v1",
    name: "MIC by broth microdilution",
    description:
      "CLSI M07-style broth microdilution in 96-well plates: two-fold compound series in cation-adjusted " +
      "Mueller-Hinton broth, about 5 x 10^5 CFU/mL inoculum, growth, sterility and QC-strain controls.",
    category: "microbiology",
    bsl_level: "BSL-2",
    version: "1.0.0",
    experiment_type: "MIC_MBC_ASSAY",
    parameters: [
      numberOfConcentrations(10, 3, 24),
      number("highest_concentration_ug_ml", "Highest final concentration in the series.", {
        required: true,
        default: 64,
        minimum: 0.001,
        maximum: 10000,
        unit: "ug/mL",
      }),
      text("medium", "Test broth.", { required: true, default: "cation-adjusted Mueller-Hinton broth" }),
      number("inoculum_cfu_ml", "Final inoculum density.", {
        required: true,
        default: 500000,
        minimum: 200000,
        maximum: 800000,
        unit: "CFU/mL",
      }),
      number("incubation_temperature_c", "Incubation temperature.", {
        required: true,
        default: 35,
        minimum: 33,
        maximum: 37,
        unit: "°C",
      }),
      number("incubation_hours", "Incubation time (24 h for some drug/organism pairs).", {
        required: true,
        default: 18,
        minimum: 16,
        maximum: 24,
        unit: "hours",
      }),
      integer("well_volume_ul", "Final volume per well.", {
        default: 100,
        minimum: 50,
        maximum: 200,
        unit: "uL",
      }),
      choice(
        "readout",
        "How growth is called; declared before the run.",
        ["visual", "od600_threshold", "resazurin"],
        {
          required: true,
          default: "od600_threshold",
        },
      ),
      boolean("include_qc_strain", "Run a CLSI QC strain with a reference drug.", { default: true }),
      qcStrain("Escherichia coli ATCC 25922"),
      number("max_solvent_percent", "Final solvent (e.g. DMSO) in every well, with a solvent control.", {
        default: 1,
        minimum: 0,
        maximum: 1,
        unit: "%",
      }),
    ],
    equipment_required: [
      BSC,
      "incubator at 35 ± 2 °C (ambient air)",
      "absorbance plate reader (600 nm)",
      "McFarland densitometer or turbidity standards",
      "multichannel pipettes",
    ],
    typical_materials: [
      { name: "Test medium", catalog: "cation-adjusted Mueller-Hinton broth" },
      { name: "Microdilution plates", catalog: "sterile 96-well polystyrene plates with lids" },
      { name: "Agar plates", catalog: "non-selective agar (e.g. Mueller-Hinton or blood agar)" },
      { name: "QC strain", catalog: "CLSI quality-control strain for the organism group" },
      { name: "Saline", catalog: "sterile 0.85% saline" },
      { name: "Turbidity standard", catalog: "0.5 McFarland standard" },
    ],
    estimated_cost_usd: { low: 200, high: 350 },
    steps: [
      ["Subculture test and QC strains onto non-selective agar; incubate 18-24 h at 35 °C.", 1200],
      ["Prepare the compound stock and a 2x top-concentration working solution in broth.", 30],
      [
        "Two-fold serial dilution across columns 1-10 (50 uL); column 11 growth control, 12 sterility control.",
        45,
      ],
      [
        "Adjust colonies to 0.5 McFarland, dilute, add 50 uL within 15 min (final about 5 x 10^5 CFU/mL).",
        30,
      ],
      ["Plate a dilution of the inoculum for a colony count to confirm its density.", 20],
      ["Cover and incubate at 35 °C in ambient air.", 1080],
      ["Read OD600 and/or visually; check growth and sterility controls and the QC MIC range.", 30],
      ["Call the MIC (lowest concentration without growth) per replicate; report the modal MIC.", 30],
    ],
  }),
  define({
    id: "mic-mbc-broth-microdilution-v1",
    name: "MIC and MBC by broth microdilution with subculture",
    description:
      "CLSI M07-style broth microdilution MIC followed by subculture of the MIC and higher wells onto agar; MBC " +
      "is the lowest concentration killing at least 99.9% of the starting inoculum; MBC/MIC ratio reported.",
    category: "microbiology",
    bsl_level: "BSL-2",
    version: "1.0.0",
    experiment_type: "MIC_MBC_ASSAY",
    parameters: [
      numberOfConcentrations(10, 3, 24),
      number("highest_concentration_ug_ml", "Highest final concentration in the series.", {
        required: true,
        default: 64,
        minimum: 0.001,
        maximum: 10000,
        unit: "ug/mL",
      }),
      text("medium", "Test broth.", { required: true, default: "cation-adjusted Mueller-Hinton broth" }),
      number("inoculum_cfu_ml", "Final inoculum density.", {
        required: true,
        default: 500000,
        minimum: 200000,
        maximum: 800000,
        unit: "CFU/mL",
      }),
      number("incubation_temperature_c", "Incubation temperature.", {
        required: true,
        default: 35,
        minimum: 33,
        maximum: 37,
        unit: "°C",
      }),
      number("incubation_hours", "Incubation time of the MIC plate.", {
        required: true,
        default: 18,
        minimum: 16,
        maximum: 24,
        unit: "hours",
      }),
      choice(
        "readout",
        "How growth is called; declared before the run.",
        ["visual", "od600_threshold", "resazurin"],
        {
          required: true,
          default: "od600_threshold",
        },
      ),
      integer("subculture_volume_ul", "Volume from each well spread onto agar for the MBC.", {
        required: true,
        default: 10,
        minimum: 10,
        maximum: 100,
        unit: "uL",
      }),
      boolean("include_qc_strain", "Run a CLSI QC strain with a reference drug.", { default: true }),
      qcStrain("Staphylococcus aureus ATCC 29213"),
    ],
    equipment_required: [
      BSC,
      "incubator at 35 ± 2 °C (ambient air)",
      "absorbance plate reader (600 nm)",
      "McFarland densitometer or turbidity standards",
      "multichannel pipettes",
      "colony counter",
    ],
    typical_materials: [
      { name: "Test medium", catalog: "cation-adjusted Mueller-Hinton broth" },
      { name: "Microdilution plates", catalog: "sterile 96-well polystyrene plates with lids" },
      { name: "Agar plates", catalog: "non-selective agar for subculture and colony counts" },
      { name: "QC strain", catalog: "CLSI quality-control strain for the organism group" },
      { name: "Saline", catalog: "sterile 0.85% saline" },
      { name: "Turbidity standard", catalog: "0.5 McFarland standard" },
    ],
    estimated_cost_usd: { low: 250, high: 400 },
    steps: [
      ["Subculture test and QC strains onto non-selective agar; incubate 18-24 h at 35 °C.", 1200],
      ["Prepare the compound stock and a 2x top-concentration working solution in broth.", 30],
      [
        "Two-fold serial dilution across columns 1-10 (50 uL); column 11 growth control, 12 sterility control.",
        45,
      ],
      [
        "Adjust colonies to 0.5 McFarland, dilute, add 50 uL within 15 min (final about 5 x 10^5 CFU/mL).",
        30,
      ],
      ["Plate a dilution of the inoculum for a colony count to confirm its density.", 20],
      ["Cover and incubate at 35 °C in ambient air.", 1080],
      ["Read OD600 and/or visually; check controls and the QC MIC range; call the MIC.", 45],
      [
        "Spread the subculture volume from the MIC well, every higher concentration and the growth control.",
        45,
      ],
      ["Incubate the agar plates 18-24 h at 35 °C.", 1200],
      ["Count colonies; MBC = lowest concentration with at least 99.9% kill; report the MBC/MIC ratio.", 30],
    ],
  }),
  // -------------------------------------------------------------------------- ZONE_OF_INHIBITION
  define({
    id: "zone-of-inhibition-disk-diffusion-v1",
    name: "Zone of inhibition by disk diffusion",
    description:
      "CLSI M02-style disk diffusion: 0.5 McFarland lawn on Mueller-Hinton agar, compound-loaded and control " +
      "disks applied within 15 minutes, 16-18 h at 35 °C, zone diameters measured in millimetres.",
    category: "microbiology",
    bsl_level: "BSL-2",
    version: "1.0.0",
    experiment_type: "ZONE_OF_INHIBITION",
    parameters: [
      text("medium", "Agar medium.", { required: true, default: "Mueller-Hinton agar" }),
      number("agar_depth_mm", "Agar depth.", { default: 4, minimum: 3, maximum: 5, unit: "mm" }),
      choice("plate_size", "Petri dish diameter (up to 5 disks on 90 mm, 12 on 150 mm).", ["90mm", "150mm"], {
        default: "90mm",
      }),
      number("disk_diameter_mm", "Blank disk diameter.", {
        required: true,
        default: 6,
        minimum: 5,
        maximum: 13,
        unit: "mm",
      }),
      integer("disks_per_plate", "Disks per plate, at least 24 mm apart centre to centre.", {
        default: 5,
        minimum: 1,
        maximum: 12,
      }),
      number("incubation_temperature_c", "Incubation temperature.", {
        required: true,
        default: 35,
        minimum: 33,
        maximum: 37,
        unit: "°C",
      }),
      number("incubation_hours", "Incubation time.", {
        required: true,
        default: 18,
        minimum: 16,
        maximum: 24,
        unit: "hours",
      }),
      boolean("include_qc_strain", "Run a CLSI QC strain with a reference antibiotic disk.", {
        default: true,
      }),
      choice("measurement", "How zones are measured.", ["caliper", "ruler", "image_analysis"], {
        default: "caliper",
      }),
    ],
    equipment_required: [
      BSC,
      "incubator at 35 ± 2 °C",
      "calipers or automated zone reader",
      "McFarland densitometer or turbidity standards",
      "disk dispenser or sterile forceps",
    ],
    typical_materials: [
      { name: "Agar plates", catalog: "Mueller-Hinton agar poured to 4 mm" },
      { name: "Blank disks", catalog: "sterile blank paper disks, 6 mm" },
      { name: "Control disks", catalog: "antibiotic susceptibility disks matching the QC strain" },
      { name: "Swabs", catalog: "sterile cotton or polyester swabs" },
      { name: "Turbidity standard", catalog: "0.5 McFarland standard" },
    ],
    estimated_cost_usd: { low: 100, high: 250 },
    steps: [
      ["Subculture test and QC strains; incubate 18-24 h at 35 °C.", 1200],
      ["Load blank disks with each compound amount and dry; prepare solvent-only control disks.", 60],
      ["Adjust colonies to 0.5 McFarland; swab the agar surface in three directions within 15 min.", 20],
      ["Apply disks within 15 min of inoculation and press them flat.", 15],
      ["Invert and incubate at 35 °C.", 1080],
      ["Measure zone diameters in mm (disk included) against a dark background; check QC zones.", 30],
      ["Report mean and SD per compound and loading.", 20],
    ],
  }),
  define({
    id: "agar-well-diffusion-v1",
    name: "Agar well diffusion screen",
    description:
      "Wells cut into a seeded agar lawn are filled with extracts or compound solutions; after pre-diffusion and " +
      "incubation the inhibition zones are measured. Suited to extracts and BSL-1 test organisms.",
    category: "microbiology",
    bsl_level: "BSL-1",
    version: "1.0.0",
    experiment_type: "ZONE_OF_INHIBITION",
    parameters: [
      text("medium", "Agar medium.", { required: true, default: "Mueller-Hinton agar" }),
      integer("well_diameter_mm", "Diameter of the wells cut into the agar.", {
        required: true,
        default: 6,
        minimum: 4,
        maximum: 10,
        unit: "mm",
      }),
      integer("well_volume_ul", "Sample volume per well.", {
        required: true,
        default: 50,
        minimum: 10,
        maximum: 100,
        unit: "uL",
      }),
      integer("pre_diffusion_minutes", "Time at room temperature before incubation.", {
        default: 60,
        minimum: 0,
        maximum: 240,
        unit: "minutes",
      }),
      number("incubation_temperature_c", "Incubation temperature.", {
        required: true,
        default: 37,
        minimum: 25,
        maximum: 42,
        unit: "°C",
      }),
      number("incubation_hours", "Incubation time.", {
        required: true,
        default: 18,
        minimum: 16,
        maximum: 48,
        unit: "hours",
      }),
    ],
    equipment_required: [
      "microbiological safety cabinet or clean bench",
      "incubator",
      "sterile cork borer or well cutter",
      "calipers",
    ],
    typical_materials: [
      { name: "Agar plates", catalog: "Mueller-Hinton agar poured to 4 mm" },
      { name: "Swabs", catalog: "sterile cotton or polyester swabs" },
      { name: "Turbidity standard", catalog: "0.5 McFarland standard" },
      { name: "Controls", catalog: "solvent-only control and a reference antibiotic solution" },
    ],
    estimated_cost_usd: { low: 100, high: 200 },
    steps: [
      ["Subculture the test organism; incubate overnight.", 1080],
      ["Adjust colonies to 0.5 McFarland and swab the agar surface in three directions.", 20],
      ["Cut wells with a sterile borer and remove the agar plugs.", 15],
      ["Fill wells with samples, solvent control and reference antibiotic.", 20],
      ["Let the samples diffuse at room temperature.", 60],
      ["Incubate the plates.", 1080],
      ["Measure zone diameters in mm; report mean and SD per sample.", 30],
    ],
  }),
  // ---------------------------------------------------------------------------------- CUSTOM
  define({
    id: "protein-quantification-bca-v1",
    name: "Protein quantification (BCA microplate assay)",
    description:
      "Bicinchoninic acid assay in a 96-well plate against an 8-point albumin standard curve; samples at two " +
      "dilutions in triplicate, read at 562 nm and interpolated from the fitted standard curve.",
    category: "analytical",
    bsl_level: "BSL-1",
    version: "1.0.0",
    experiment_type: "CUSTOM",
    parameters: [
      choice(
        "standard_protein",
        "Protein used for the standard curve.",
        ["bovine_serum_albumin", "bovine_gamma_globulin"],
        {
          required: true,
          default: "bovine_serum_albumin",
        },
      ),
      integer("top_standard_ug_ml", "Highest standard concentration.", {
        default: 2000,
        minimum: 500,
        maximum: 2000,
        unit: "ug/mL",
      }),
      integer("sample_dilutions", "Dilutions tested per sample.", { default: 2, minimum: 1, maximum: 4 }),
      number("incubation_temperature_c", "Colour development temperature.", {
        required: true,
        default: 37,
        minimum: 20,
        maximum: 60,
        unit: "°C",
      }),
      integer("incubation_minutes", "Colour development time.", {
        required: true,
        default: 30,
        minimum: 15,
        maximum: 120,
        unit: "minutes",
      }),
    ],
    equipment_required: ["absorbance plate reader (562 nm)", "plate incubator", "multichannel pipettes"],
    typical_materials: [
      { name: "BCA reagents", catalog: "bicinchoninic acid reagent A and copper(II) sulfate reagent B" },
      { name: "Protein standard", catalog: "albumin standard, 2 mg/mL" },
      { name: "Plates", catalog: "clear flat-bottom 96-well plates" },
      { name: "Diluent", catalog: "the samples' own buffer" },
    ],
    estimated_cost_usd: { low: 100, high: 250 },
    steps: [
      ["Prepare the 8-point standard series (0 to the top standard) in the sample buffer.", 30],
      ["Dilute samples at the requested dilutions.", 20],
      ["Mix working reagent (reagent A : reagent B = 50 : 1).", 5],
      ["Pipette 25 uL standard or sample and 200 uL working reagent per well, in triplicate.", 20],
      ["Shake 30 s, cover and incubate.", 30],
      ["Cool to room temperature and read absorbance at 562 nm.", 15],
      ["Blank-subtract, fit the standard curve, interpolate samples and apply dilution factors.", 30],
    ],
  }),
  define({
    id: "agarose-gel-electrophoresis-v1",
    name: "Agarose gel electrophoresis of DNA",
    description:
      "Size check of DNA samples (PCR products, digests, plasmids) on an agarose gel with a size ladder; gel image " +
      "and band sizes estimated against the ladder.",
    category: "molecular_biology",
    bsl_level: "BSL-1",
    version: "1.0.0",
    experiment_type: "CUSTOM",
    parameters: [
      number("agarose_percent", "Agarose concentration (w/v).", {
        required: true,
        default: 1,
        minimum: 0.5,
        maximum: 3,
        unit: "%",
      }),
      choice("buffer", "Running buffer.", ["TAE", "TBE"], { default: "TAE" }),
      number("field_strength_v_per_cm", "Voltage per cm between the electrodes.", {
        default: 5,
        minimum: 3,
        maximum: 10,
        unit: "V/cm",
      }),
      integer("run_minutes", "Run time.", { default: 45, minimum: 15, maximum: 180, unit: "minutes" }),
      choice("stain", "In-gel stain or staining after the run.", ["in_gel", "post_stain"], {
        default: "in_gel",
      }),
      text("ladder", "DNA size ladder.", { default: "1 kb DNA ladder" }),
    ],
    equipment_required: [
      "horizontal gel electrophoresis system",
      "power supply",
      "gel imager (blue-light or UV)",
      "microwave or heating plate",
    ],
    typical_materials: [
      { name: "Agarose", catalog: "molecular-biology grade agarose" },
      { name: "Running buffer", catalog: "TAE or TBE buffer" },
      { name: "DNA stain", catalog: "intercalating nucleic-acid gel stain" },
      { name: "DNA ladder", catalog: "DNA size ladder covering the expected sizes" },
      { name: "Loading dye", catalog: "6x DNA loading dye" },
    ],
    estimated_cost_usd: { low: 80, high: 200 },
    steps: [
      ["Cast the gel at the requested agarose concentration with stain if in-gel.", 45],
      ["Mix samples with loading dye; load samples and the ladder.", 15],
      ["Run at the requested field strength.", 45],
      ["Post-stain if requested; image the gel.", 15],
      ["Estimate band sizes against the ladder and annotate the image.", 20],
    ],
  }),
];
