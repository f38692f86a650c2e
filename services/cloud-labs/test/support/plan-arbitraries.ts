/**
 * fast-check arbitraries of LabPlans of every experiment type, within PLAN_LIMITS: list lengths,
 * replicate counts and text lengths stay inside the limits interpret enforces. Sizes lean small
 * (most generated plans fit one plate) but reach the limits too, and a minority of values is
 * deliberately awkward (unusual temperatures, assay types without a readout, wide dilution steps)
 * so translators meet the plans they must refuse. For tests only.
 */
import fc from "fast-check";
import { EXPERIMENT_TYPES, type ExperimentTypeName } from "@petri/contracts/vocabulary";
import {
  PLAN_LIMITS,
  type CustomPlan,
  type EnzymePlan,
  type GrowthPlan,
  type LabPlan,
  type MicPlan,
  type Organism,
  type QpcrPlan,
  type Replicates,
  type SangerPlan,
  type ViabilityPlan,
  type ZonePlan,
} from "../../src/domain/plan.js";

/** Mostly small, sometimes anywhere up to the limit. */
function count(max: number, usual = Math.min(3, max)): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: usual }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max }) },
  );
}

function listOf<T>(item: fc.Arbitrary<T>, max: number, usual = Math.min(3, max)): fc.Arbitrary<T[]> {
  return count(max, usual).chain((length) => fc.array(item, { minLength: length, maxLength: length }));
}

/** Any printable text, trimmed and non-empty, within the text limit. */
const text: fc.Arbitrary<string> = fc
  .string({ minLength: 1, maxLength: PLAN_LIMITS.text, unit: "grapheme", size: "small" })
  .map((value) => value.trim())
  .filter((value) => value.length > 0);

/** Names that look like names, so the generated plans stay readable when a test fails. */
const name: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Z][a-z]{2,10}(?:[ -][A-Za-z0-9]{1,8}){0,2}$/) },
  { weight: 1, arbitrary: text },
);

const replicates: fc.Arbitrary<Replicates> = fc.record({
  technical: count(PLAN_LIMITS.replicates_technical),
  biological: fc.oneof(
    { weight: 6, arbitrary: fc.constant(1) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: PLAN_LIMITS.replicates_biological }) },
  ),
});

const organism: fc.Arbitrary<Organism> = fc.record({
  name,
  strain: fc.option(fc.stringMatching(/^(?:ATCC|DSM|NCTC) \d{4,5}$/), { nil: null }),
});

const positiveDouble = (min: number, max: number) =>
  fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/** Highest first, strictly decreasing: 2-fold, 3-fold and half-log mostly, odd steps sometimes. */
function concentrationSeries(top: fc.Arbitrary<number>): fc.Arbitrary<number[]> {
  const fold = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(2, 3, Math.sqrt(10)) },
    { weight: 1, arbitrary: positiveDouble(1.05, 100) },
  );
  return fc
    .tuple(top, listOf(fold, PLAN_LIMITS.concentrations, 12))
    .map(([highest, folds]) => {
      const series = [highest];
      for (const step of folds.slice(1)) series.push((series.at(-1) as number) / step);
      return series;
    })
    .filter((series) =>
      series.every((value, i) => value > 0 && (i === 0 || value < (series[i - 1] as number))),
    );
}

const base = {
  title: text,
  replicates,
  bsl: fc.constantFrom("BSL-1" as const, "BSL-2" as const),
  plate_format: fc.oneof(
    { weight: 3, arbitrary: fc.constant("96-well" as const) },
    { weight: 1, arbitrary: fc.constant("384-well" as const) },
  ),
  sample_count: fc.integer({ min: 1, max: 10_000 }),
};

/** Incubation temperatures: the usual ones, and now and then one no incubator holds. */
const incubationTemperature = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(35, 37) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 45 }) },
);

const mic: fc.Arbitrary<MicPlan> = fc.record({
  ...base,
  experiment_type: fc.constant("MIC_MBC_ASSAY" as const),
  detection_method: fc.constant("absorbance" as const),
  organisms: listOf(organism, PLAN_LIMITS.organisms, 1),
  compounds: listOf(
    fc.record({ name, concentrations_ug_ml: concentrationSeries(positiveDouble(0.01, 1024)) }),
    PLAN_LIMITS.compounds,
    2,
  ),
  medium: fc.constantFrom("cation-adjusted Mueller-Hinton broth", "Mueller-Hinton broth", "LB broth"),
  inoculum_cfu_ml: fc.integer({ min: 10_000, max: 10_000_000 }),
  incubation_hours: fc.integer({ min: 16, max: 48 }),
  temperature_c: incubationTemperature,
  determine_mbc: fc.boolean(),
  positive_control: fc.option(name, { nil: null }),
});

const zone: fc.Arbitrary<ZonePlan> = fc.record({
  ...base,
  experiment_type: fc.constant("ZONE_OF_INHIBITION" as const),
  detection_method: fc.constant("imaging" as const),
  organisms: listOf(organism, PLAN_LIMITS.organisms, 1),
  agents: listOf(
    fc.record({ name, disk_loading_ug: listOf(positiveDouble(0.1, 500), PLAN_LIMITS.concentrations, 3) }),
    PLAN_LIMITS.compounds,
    1,
  ),
  medium: fc.constant("Mueller-Hinton agar"),
  disk_diameter_mm: fc.constantFrom(6, 6.35, 9),
  incubation_hours: fc.integer({ min: 16, max: 24 }),
  temperature_c: incubationTemperature,
  positive_control: fc.option(name, { nil: null }),
});

const viability: fc.Arbitrary<ViabilityPlan> = fc.record({
  ...base,
  experiment_type: fc.constant("CELL_VIABILITY_IC50" as const),
  detection_method: fc.constant("luminescence" as const),
  cell_line: fc.constantFrom("HepG2", "HeLa", "A549", "MCF-7", "HEK293T"),
  compound: fc.record({ name, concentrations_um: concentrationSeries(positiveDouble(0.001, 1000)) }),
  assay_type: fc.oneof(
    { weight: 5, arbitrary: fc.constant("CELLTITER_GLO" as const) },
    { weight: 1, arbitrary: fc.constantFrom("MTT" as const, "MTS" as const, "RESAZURIN" as const) },
  ),
  solvent: fc.constantFrom("DMSO", "water", "ethanol"),
  exposure_hours: fc.constantFrom(24, 48, 72, 96),
  seeding_density_cells_per_well: fc.integer({ min: 500, max: 50_000 }),
  positive_control: fc.option(name, { nil: null }),
});

const enzyme: fc.Arbitrary<EnzymePlan> = fc.record({
  ...base,
  experiment_type: fc.constant("ENZYME_INHIBITION_IC50" as const),
  detection_method: fc.constant("absorbance" as const),
  enzyme: name,
  substrate: name,
  inhibitor: fc.record({ name, concentrations_um: concentrationSeries(positiveDouble(0.001, 1000)) }),
  assay_type: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("COLORIMETRIC" as const, "COUPLED" as const) },
    { weight: 2, arbitrary: fc.constant("LUMINESCENT" as const) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("FLUOROMETRIC" as const, "RADIOMETRIC" as const, "OTHER" as const),
    },
  ),
  incubation_minutes: fc.integer({ min: 5, max: 120 }),
  temperature_c: fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(22, 25, 30, 37) },
    { weight: 1, arbitrary: fc.integer({ min: 4, max: 60 }) },
  ),
  wavelength_nm: fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 230, max: 900 }) },
    { weight: 1, arbitrary: fc.constant(null) },
  ),
  positive_control: fc.option(name, { nil: null }),
});

const gene = fc.stringMatching(/^[A-Z][A-Z0-9]{1,7}$/);

const qpcr: fc.Arbitrary<QpcrPlan> = fc.record({
  ...base,
  experiment_type: fc.constant("QPCR_EXPRESSION" as const),
  detection_method: fc.constant("qpcr_fluorescence" as const),
  targets: listOf(gene, PLAN_LIMITS.qpcr_targets, 2),
  reference_genes: listOf(gene, PLAN_LIMITS.qpcr_reference_genes, 2),
  chemistry: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("SYBR_GREEN" as const, "TAQMAN" as const) },
    { weight: 1, arbitrary: fc.constant("OTHER" as const) },
  ),
  samples: listOf(name, PLAN_LIMITS.qpcr_samples, 6),
  reaction_volume_ul: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(10, 20, 25) },
    { weight: 1, arbitrary: fc.integer({ min: 5, max: 200 }) },
  ),
  cycles: fc.integer({ min: 30, max: 50 }),
});

const sanger: fc.Arbitrary<SangerPlan> = fc.record({
  ...base,
  experiment_type: fc.constant("SANGER_PLASMID_VERIFICATION" as const),
  detection_method: fc.constant("sanger_sequencing" as const),
  template_type: fc.constantFrom("plasmid" as const, "pcr_product" as const, "genomic" as const),
  templates: count(PLAN_LIMITS.sanger_templates, 8),
  primers: listOf(
    fc.record({ name, sequence: fc.option(fc.stringMatching(/^[ACGT]{15,30}$/), { nil: null }) }),
    PLAN_LIMITS.sanger_primers,
    2,
  ),
  expected_insert_size_bp: fc.option(fc.integer({ min: 50, max: 15_000 }), { nil: null }),
});

const setting = fc.oneof(
  {
    weight: 15,
    arbitrary: fc.record({
      variable: fc.constantFrom("glucose", "NaCl", "pH", "ampicillin"),
      value: fc.oneof(positiveDouble(0.01, 100), name),
      unit: fc.option(fc.constantFrom("%", "mM", "µg/mL"), { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      variable: fc.constant("temperature"),
      value: fc.integer({ min: 20, max: 42 }),
      unit: fc.constant("°C"),
    }),
  },
);

const growth: fc.Arbitrary<GrowthPlan> = fc.record({
  ...base,
  experiment_type: fc.constant("MICROBIAL_GROWTH_MATRIX" as const),
  detection_method: fc.constant("absorbance" as const),
  organism,
  medium: fc.constantFrom("M9 minimal medium", "LB broth", "YPD"),
  conditions: listOf(
    fc.record({ label: text, settings: listOf(setting, 3, 1) }),
    PLAN_LIMITS.growth_conditions,
    4,
  ),
  temperature_c: fc.integer({ min: 20, max: 42 }),
  duration_hours: fc.integer({ min: 1, max: 72 }),
  read_interval_minutes: fc.constantFrom(5, 10, 15, 30, 60),
  aeration: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom("static" as const, "shaking" as const) },
    { weight: 1, arbitrary: fc.constant("anaerobic" as const) },
  ),
});

const customStep = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      action: fc.constantFrom("Incubate the plate", "Grow cultures", "Incubate"),
      duration_minutes: fc.integer({ min: 1, max: 2880 }),
      temperature_c: fc.constantFrom(22, 30, 35, 37),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      action: fc.integer({ min: 300, max: 900 }).map((nm) => `Read absorbance at ${nm} nm`),
      duration_minutes: fc.constant(null),
      temperature_c: fc.constant(null),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      action: text,
      duration_minutes: fc.option(fc.integer({ min: 1, max: 600 }), { nil: null }),
      temperature_c: fc.option(fc.integer({ min: 4, max: 95 }), { nil: null }),
    }),
  },
);

const custom: fc.Arbitrary<CustomPlan> = fc.record({
  ...base,
  experiment_type: fc.constant("CUSTOM" as const),
  detection_method: fc.constant("absorbance" as const),
  steps: listOf(customStep, PLAN_LIMITS.custom_steps, 4),
});

const BY_TYPE: Record<ExperimentTypeName, fc.Arbitrary<LabPlan>> = {
  MIC_MBC_ASSAY: mic,
  ZONE_OF_INHIBITION: zone,
  CELL_VIABILITY_IC50: viability,
  ENZYME_INHIBITION_IC50: enzyme,
  QPCR_EXPRESSION: qpcr,
  SANGER_PLASMID_VERIFICATION: sanger,
  MICROBIAL_GROWTH_MATRIX: growth,
  CUSTOM: custom,
};

export function arbitraryPlanOf<T extends ExperimentTypeName>(
  type: T,
): fc.Arbitrary<Extract<LabPlan, { experiment_type: T }>> {
  return BY_TYPE[type] as fc.Arbitrary<Extract<LabPlan, { experiment_type: T }>>;
}

/** Any experiment type, equally often. */
export function arbitraryPlan(): fc.Arbitrary<LabPlan> {
  return fc.constantFrom(...EXPERIMENT_TYPES).chain((type) => BY_TYPE[type]);
}
