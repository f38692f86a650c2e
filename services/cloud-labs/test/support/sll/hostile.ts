/**
 * Test support: plans whose every user-text field is replaced, and the largest plans of each
 * type within PLAN_LIMITS with the text that escapes worst.
 */
import { PLAN_LIMITS, type LabPlan } from "../../../src/domain/plan.js";
import { MAX_GROWTH_READS } from "../../../src/domain/sll/builders/growth.js";

/** Fields holding a closed set of values, not user text. */
const CLOSED_FIELDS = new Set([
  "experiment_type",
  "bsl",
  "plate_format",
  "detection_method",
  "assay_type",
  "chemistry",
  "template_type",
  "aeration",
]);

/** A copy of the plan with every user-text string replaced by the next of `texts` (cycled). */
export function withTexts<T extends LabPlan>(plan: T, texts: readonly string[]): T {
  let next = 0;
  const take = () => texts[next++ % texts.length]!;
  const walk = (value: unknown, key: string): unknown => {
    if (typeof value === "string") return CLOSED_FIELDS.has(key) ? value : take();
    if (Array.isArray(value)) return value.map((item) => walk(item, key));
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    return value;
  };
  return walk(plan, "") as T;
}

/** 200 characters that each take 6 escaped characters, with every breakout attempt in it. */
export const WORST_TEXT = `"*)\\" ] }]; Quit[] (* \n\u202e`.padEnd(PLAN_LIMITS.text, "\u00e9");

const L = PLAN_LIMITS;
const many = <T>(count: number, make: (i: number) => T) => Array.from({ length: count }, (_, i) => make(i));
const halfLog = (count: number) => many(count, (i) => Number((1000 / Math.sqrt(10) ** i).toPrecision(6)));
const base = {
  title: WORST_TEXT,
  replicates: { technical: L.replicates_technical, biological: L.replicates_biological },
  bsl: "BSL-2",
  plate_format: "96-well",
  sample_count: 1,
} as const;

export function largestPlans(): LabPlan[] {
  const organisms = many(L.organisms, () => ({ name: WORST_TEXT, strain: WORST_TEXT }));
  return [
    ...largestAntimicrobialPlans(organisms),
    ...largestDoseResponsePlans(),
    ...largestMolecularPlans(),
    ...largestGrowthAndCustomPlans(),
  ];
}

type WorstOrganism = { name: string; strain: string };

/** MIC/MBC and disk diffusion. */
function largestAntimicrobialPlans(organisms: WorstOrganism[]): LabPlan[] {
  return [
    {
      ...base,
      experiment_type: "MIC_MBC_ASSAY",
      detection_method: "absorbance",
      organisms,
      compounds: many(L.compounds, () => ({
        name: WORST_TEXT,
        concentrations_ug_ml: halfLog(L.concentrations),
      })),
      medium: WORST_TEXT,
      inoculum_cfu_ml: 500_000,
      incubation_hours: 24,
      temperature_c: 35,
      determine_mbc: true,
      positive_control: WORST_TEXT,
    },
    {
      ...base,
      experiment_type: "ZONE_OF_INHIBITION",
      detection_method: "imaging",
      organisms,
      agents: many(L.compounds, () => ({ name: WORST_TEXT, disk_loading_ug: halfLog(L.concentrations) })),
      medium: WORST_TEXT,
      disk_diameter_mm: 6,
      incubation_hours: 18,
      temperature_c: 35,
      positive_control: WORST_TEXT,
    },
  ];
}

/** Cell viability and enzyme inhibition IC50. */
function largestDoseResponsePlans(): LabPlan[] {
  return [
    {
      ...base,
      experiment_type: "CELL_VIABILITY_IC50",
      detection_method: "luminescence",
      cell_line: WORST_TEXT,
      compound: { name: WORST_TEXT, concentrations_um: halfLog(L.concentrations) },
      assay_type: "CELLTITER_GLO",
      solvent: WORST_TEXT,
      exposure_hours: 72,
      seeding_density_cells_per_well: 5000,
      positive_control: WORST_TEXT,
    },
    {
      ...base,
      experiment_type: "ENZYME_INHIBITION_IC50",
      detection_method: "absorbance",
      enzyme: WORST_TEXT,
      substrate: WORST_TEXT,
      inhibitor: { name: WORST_TEXT, concentrations_um: halfLog(L.concentrations) },
      assay_type: "COLORIMETRIC",
      incubation_minutes: 30,
      temperature_c: 25,
      wavelength_nm: 412,
      positive_control: WORST_TEXT,
    },
  ];
}

/** qPCR expression and Sanger verification. */
function largestMolecularPlans(): LabPlan[] {
  return [
    {
      ...base,
      experiment_type: "QPCR_EXPRESSION",
      detection_method: "qpcr_fluorescence",
      targets: many(L.qpcr_targets, () => WORST_TEXT),
      reference_genes: many(L.qpcr_reference_genes, () => WORST_TEXT),
      chemistry: "SYBR_GREEN",
      samples: many(L.qpcr_samples, () => WORST_TEXT),
      reaction_volume_ul: 20,
      cycles: 40,
    },
    {
      ...base,
      experiment_type: "SANGER_PLASMID_VERIFICATION",
      detection_method: "sanger_sequencing",
      template_type: "plasmid",
      templates: L.sanger_templates,
      primers: many(L.sanger_primers, () => ({ name: WORST_TEXT, sequence: WORST_TEXT })),
      expected_insert_size_bp: 5000,
    },
  ];
}

/** The growth matrix and a custom protocol. */
function largestGrowthAndCustomPlans(): LabPlan[] {
  return [
    {
      ...base,
      experiment_type: "MICROBIAL_GROWTH_MATRIX",
      detection_method: "absorbance",
      organism: { name: WORST_TEXT, strain: WORST_TEXT },
      medium: WORST_TEXT,
      conditions: many(L.growth_conditions, () => ({
        label: WORST_TEXT,
        settings: [{ variable: WORST_TEXT, value: WORST_TEXT, unit: WORST_TEXT }],
      })),
      temperature_c: 37,
      duration_hours: (MAX_GROWTH_READS * 5) / 60,
      read_interval_minutes: 5,
      aeration: "shaking",
    },
    {
      ...base,
      experiment_type: "CUSTOM",
      detection_method: "absorbance",
      steps: many(L.custom_steps, (i) => ({
        action: WORST_TEXT,
        duration_minutes: i % 2 === 0 ? 10 : null,
        temperature_c: i % 3 === 0 ? 37 : null,
      })),
    },
  ];
}
