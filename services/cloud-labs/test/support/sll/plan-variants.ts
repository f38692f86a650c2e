/**
 * Test support: the sample plans plus variants that reach every branch of the generators
 * (plate formats, detection methods, assay types, chemistries, optional controls).
 */
import type {
  CustomPlan,
  EnzymePlan,
  GrowthPlan,
  LabPlan,
  MicPlan,
  QpcrPlan,
  SangerPlan,
  ViabilityPlan,
  ZonePlan,
} from "../../../src/domain/plan.js";
import { SAMPLE_PLANS } from "../sample-plans.js";

export function variant<T extends LabPlan>(plan: LabPlan, change: (copy: T) => void): T {
  const copy = structuredClone(plan) as T;
  change(copy);
  return copy;
}

export function planVariants(): { name: string; plan: LabPlan }[] {
  const s = SAMPLE_PLANS;
  const list: { name: string; plan: LabPlan }[] = Object.entries(s).map(([name, plan]) => ({ name, plan }));
  const add: AddVariant = <T extends LabPlan>(name: string, base: LabPlan, change: (copy: T) => void) => {
    list.push({ name, plan: variant<T>(base, change) });
  };
  addAntimicrobialVariants(add, s);
  addDoseResponseVariants(add, s);
  addMolecularGrowthAndCustomVariants(add, s);
  return list;
}

type AddVariant = <T extends LabPlan>(name: string, base: LabPlan, change: (copy: T) => void) => void;

/** MIC and disk diffusion. */
function addAntimicrobialVariants(add: AddVariant, s: typeof SAMPLE_PLANS): void {
  add<MicPlan>("MIC 384, no QC, MBC, fluorescence", s.MIC_MBC_ASSAY, (p) => {
    p.plate_format = "384-well";
    p.positive_control = null;
    p.determine_mbc = true;
    p.detection_method = "fluorescence";
  });
  add<MicPlan>("MIC single concentration, two organisms, two cultures", s.MIC_MBC_ASSAY, (p) => {
    p.compounds = [{ name: "X", concentrations_ug_ml: [8] }];
    p.organisms.push({ name: "Pseudomonas aeruginosa", strain: null });
    p.replicates.biological = 2;
  });
  add<ZonePlan>("zone without reference", s.ZONE_OF_INHIBITION, (p) => {
    p.positive_control = null;
    p.replicates.biological = 2;
  });
}

/** Cell viability and enzyme inhibition. */
function addDoseResponseVariants(add: AddVariant, s: typeof SAMPLE_PLANS): void {
  for (const assay of ["MTT", "MTS", "RESAZURIN", "LIVE_DEAD", "OTHER"] as const) {
    add<ViabilityPlan>(`viability ${assay}`, s.CELL_VIABILITY_IC50, (p) => {
      p.assay_type = assay;
      p.detection_method =
        assay === "RESAZURIN" ? "fluorescence" : assay === "LIVE_DEAD" ? "imaging" : "absorbance";
    });
  }
  add<ViabilityPlan>("viability 384, no kill control, CTG on absorbance", s.CELL_VIABILITY_IC50, (p) => {
    p.plate_format = "384-well";
    p.positive_control = null;
    p.detection_method = "absorbance";
  });
  add<EnzymePlan>("enzyme fluorescence with reference inhibitor", s.ENZYME_INHIBITION_IC50, (p) => {
    p.detection_method = "fluorescence";
    p.wavelength_nm = null;
    p.positive_control = "donepezil";
  });
  add<EnzymePlan>("enzyme absorbance without wavelength, 384", s.ENZYME_INHIBITION_IC50, (p) => {
    p.wavelength_nm = null;
    p.plate_format = "384-well";
  });
  add<EnzymePlan>("enzyme luminescence", s.ENZYME_INHIBITION_IC50, (p) => {
    p.detection_method = "luminescence";
  });
}

/** qPCR, Sanger, growth matrix and custom protocols. */
function addMolecularGrowthAndCustomVariants(add: AddVariant, s: typeof SAMPLE_PLANS): void {
  add<QpcrPlan>("qPCR TaqMan, one culture", s.QPCR_EXPRESSION, (p) => {
    p.chemistry = "TAQMAN";
    p.replicates.biological = 1;
  });
  add<QpcrPlan>("qPCR other chemistry", s.QPCR_EXPRESSION, (p) => {
    p.chemistry = "OTHER";
  });
  add<SangerPlan>("Sanger 384, unknown sequence, PCR product", s.SANGER_PLASMID_VERIFICATION, (p) => {
    p.plate_format = "384-well";
    p.primers[0]!.sequence = null;
    p.expected_insert_size_bp = null;
    p.template_type = "pcr_product";
    p.replicates.technical = 2;
  });
  add<GrowthPlan>("growth anaerobic, uneven interval, two cultures", s.MICROBIAL_GROWTH_MATRIX, (p) => {
    p.aeration = "anaerobic";
    p.read_interval_minutes = 25;
    p.duration_hours = 2;
    p.replicates.biological = 2;
  });
  add<GrowthPlan>("growth static, fluorescence", s.MICROBIAL_GROWTH_MATRIX, (p) => {
    p.aeration = "static";
    p.detection_method = "fluorescence";
    p.duration_hours = 1;
  });
  add<GrowthPlan>("growth imaging", s.MICROBIAL_GROWTH_MATRIX, (p) => {
    p.detection_method = "imaging";
  });
  add<CustomPlan>("custom imaging, trailing action", s.CUSTOM, (p) => {
    p.detection_method = "imaging";
    p.steps.push({ action: "Photograph the plate", duration_minutes: null, temperature_c: null });
  });
  add<CustomPlan>("custom luminescence, temperature only", s.CUSTOM, (p) => {
    p.detection_method = "luminescence";
    p.steps = [{ action: "Hold on ice", duration_minutes: null, temperature_c: 4 }];
  });
}
