import type { ExperimentTypeName } from "@petri/contracts/vocabulary";

/**
 * The shapes the cloud-lab pieces share (docs/api.md "Cloud lab provider", "Cloud labs"). Pure
 * types, written first so the parts can be built side by side:
 *
 *   intake (a POST /experiments body, possibly partial)
 *     --interpret (domain/interpret)-->  LabPlan (+ Interpretation, the public summary)
 *     --translate (domain/autoprotocol, domain/sll)-->  a protocol in the provider's format
 *     --check (domain/autoprotocol/checker)-->  violations (must be none for what we emit)
 *
 * Units inside a plan are fixed (no unit strings to misread): concentrations of antimicrobials
 * in µg/mL, of compounds on cells and enzymes in µM, volumes in µL, times in hours (enzyme
 * incubation in minutes), temperatures in °C.
 */

export type ProtocolFormat = "autoprotocol" | "sll";
export type PlateFormat = "96-well" | "384-well";
export type BslLevel = "BSL-1" | "BSL-2";

/** How a plate is read; providers list the ones they have. */
export type DetectionMethod =
  "absorbance" | "fluorescence" | "luminescence" | "qpcr_fluorescence" | "sanger_sequencing" | "imaging";

export interface CloudLabProvider {
  id: string;
  name: string;
  description: string;
  protocol_format: ProtocolFormat;
  supported_experiment_types: ExperimentTypeName[];
  /** "available", or "maintenance" / "unavailable" (then nothing is translated for it). */
  status: "available" | "maintenance" | "unavailable";
  capabilities: {
    cell_lines: string[];
    plate_formats: PlateFormat[];
    detection_methods: DetectionMethod[];
  };
  pricing: { base_cost_usd: number; per_sample_usd: number };
  turnaround_days: { min: number; max: number };
  /** The highest biosafety level the lab accepts. */
  max_bsl: BslLevel;
}

/** The public answer of POST /cloud-labs/interpret (docs/api.md). */
export interface Interpretation {
  experiment_type: ExperimentTypeName;
  parameters: {
    organisms: { name: string; strain: string | null }[];
    compounds: { name: string; concentrations: number[]; unit: string }[];
    replicates: number;
    incubation_hours: number | null;
    detection_method: DetectionMethod | null;
  };
  /** 0..1: how much of the plan came from the intake rather than from defaults. */
  confidence: number;
  /** What was defaulted, assumed or left out, in plain words. */
  notes: string[];
}

export interface Organism {
  name: string;
  strain: string | null;
}

export interface Replicates {
  technical: number;
  biological: number;
}

interface PlanBase {
  title: string;
  replicates: Replicates;
  bsl: BslLevel;
  plate_format: PlateFormat;
  detection_method: DetectionMethod;
  /** What the provider's per-sample price counts (wells of test samples, reactions, reads...). */
  sample_count: number;
}

export interface MicPlan extends PlanBase {
  experiment_type: "MIC_MBC_ASSAY";
  organisms: Organism[];
  /** Final in-well concentrations, highest first, µg/mL. */
  compounds: { name: string; concentrations_ug_ml: number[] }[];
  medium: string;
  inoculum_cfu_ml: number;
  incubation_hours: number;
  temperature_c: number;
  determine_mbc: boolean;
  positive_control: string | null;
}

export interface ZonePlan extends PlanBase {
  experiment_type: "ZONE_OF_INHIBITION";
  organisms: Organism[];
  agents: { name: string; disk_loading_ug: number[] }[];
  medium: string;
  disk_diameter_mm: number;
  incubation_hours: number;
  temperature_c: number;
  positive_control: string | null;
}

export interface ViabilityPlan extends PlanBase {
  experiment_type: "CELL_VIABILITY_IC50";
  cell_line: string;
  /** Final in-well concentrations, highest first, µM. */
  compound: { name: string; concentrations_um: number[] };
  assay_type: "CELLTITER_GLO" | "MTT" | "MTS" | "RESAZURIN" | "LIVE_DEAD" | "OTHER";
  solvent: string;
  exposure_hours: number;
  seeding_density_cells_per_well: number;
  positive_control: string | null;
}

export interface EnzymePlan extends PlanBase {
  experiment_type: "ENZYME_INHIBITION_IC50";
  enzyme: string;
  substrate: string;
  /** Final in-well concentrations, highest first, µM. */
  inhibitor: { name: string; concentrations_um: number[] };
  assay_type: "COLORIMETRIC" | "FLUOROMETRIC" | "LUMINESCENT" | "RADIOMETRIC" | "COUPLED" | "OTHER";
  incubation_minutes: number;
  temperature_c: number;
  wavelength_nm: number | null;
  positive_control: string | null;
}

export interface QpcrPlan extends PlanBase {
  experiment_type: "QPCR_EXPRESSION";
  targets: string[];
  reference_genes: string[];
  chemistry: "SYBR_GREEN" | "TAQMAN" | "OTHER";
  samples: string[];
  reaction_volume_ul: number;
  cycles: number;
}

export interface SangerPlan extends PlanBase {
  experiment_type: "SANGER_PLASMID_VERIFICATION";
  template_type: "plasmid" | "pcr_product" | "genomic";
  templates: number;
  primers: { name: string; sequence: string | null }[];
  expected_insert_size_bp: number | null;
}

export interface GrowthPlan extends PlanBase {
  experiment_type: "MICROBIAL_GROWTH_MATRIX";
  organism: Organism;
  medium: string;
  /** Each condition is one combination of the matrix, e.g. "glucose=0.4 %". */
  conditions: {
    label: string;
    settings: { variable: string; value: string | number; unit: string | null }[];
  }[];
  temperature_c: number;
  duration_hours: number;
  read_interval_minutes: number;
  aeration: "static" | "shaking" | "anaerobic";
}

export interface CustomPlan extends PlanBase {
  experiment_type: "CUSTOM";
  steps: {
    action: string;
    duration_minutes: number | null;
    temperature_c: number | null;
  }[];
}

export type LabPlan =
  MicPlan | ZonePlan | ViabilityPlan | EnzymePlan | QpcrPlan | SangerPlan | GrowthPlan | CustomPlan;

/** Bounds that keep a hostile intake from producing a giant protocol (interpret enforces them). */
export const PLAN_LIMITS = {
  organisms: 8,
  compounds: 8,
  concentrations: 24,
  qpcr_targets: 16,
  qpcr_reference_genes: 4,
  qpcr_samples: 48,
  sanger_templates: 96,
  sanger_primers: 8,
  growth_conditions: 48,
  custom_steps: 50,
  replicates_technical: 6,
  replicates_biological: 6,
  text: 200,
  /** A custom protocol step's action (the experiments service accepts this much too). */
  step_text: 2000,
} as const;

/** A field problem, as the public errors list has it. */
export interface PlanProblem {
  field: string;
  message: string;
}
