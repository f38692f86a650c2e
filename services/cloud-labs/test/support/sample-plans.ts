/**
 * One realistic LabPlan per experiment type, for golden-file and unit tests of the protocol
 * generators. Deep-frozen: structuredClone before changing one. Organism strains and reference
 * genes are the usual laboratory ones; nothing here is a result.
 */
import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { LabPlan } from "../../src/domain/plan.js";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const item of Object.values(value as Record<string, unknown>)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

const twofold = (top: number, points: number) => Array.from({ length: points }, (_, i) => top / 2 ** i);

export const SAMPLE_PLANS: Readonly<Record<ExperimentTypeName, LabPlan>> = deepFreeze({
  MIC_MBC_ASSAY: {
    experiment_type: "MIC_MBC_ASSAY",
    title: "MIC of ampicillin against E. coli ATCC 25922",
    replicates: { technical: 3, biological: 1 },
    bsl: "BSL-1",
    plate_format: "96-well",
    detection_method: "absorbance",
    sample_count: 30,
    organisms: [{ name: "Escherichia coli", strain: "ATCC 25922" }],
    compounds: [{ name: "ampicillin", concentrations_ug_ml: twofold(64, 10) }],
    medium: "cation-adjusted Mueller-Hinton broth",
    inoculum_cfu_ml: 500_000,
    incubation_hours: 18,
    temperature_c: 35,
    determine_mbc: false,
    positive_control: "gentamicin",
  },
  ZONE_OF_INHIBITION: {
    experiment_type: "ZONE_OF_INHIBITION",
    title: "Disk diffusion of compound PX-17 on S. aureus ATCC 25923",
    replicates: { technical: 3, biological: 1 },
    bsl: "BSL-2",
    plate_format: "96-well",
    detection_method: "imaging",
    sample_count: 9,
    organisms: [{ name: "Staphylococcus aureus", strain: "ATCC 25923" }],
    agents: [{ name: "PX-17", disk_loading_ug: [10, 30, 100] }],
    medium: "Mueller-Hinton agar",
    disk_diameter_mm: 6,
    incubation_hours: 18,
    temperature_c: 35,
    positive_control: "vancomycin",
  },
  CELL_VIABILITY_IC50: {
    experiment_type: "CELL_VIABILITY_IC50",
    title: "HepG2 viability IC50 of doxorubicin",
    replicates: { technical: 3, biological: 1 },
    bsl: "BSL-1",
    plate_format: "96-well",
    detection_method: "luminescence",
    sample_count: 30,
    cell_line: "HepG2",
    compound: { name: "doxorubicin", concentrations_um: [30, 10, 3, 1, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001] },
    assay_type: "CELLTITER_GLO",
    solvent: "DMSO",
    exposure_hours: 72,
    seeding_density_cells_per_well: 5_000,
    positive_control: "staurosporine",
  },
  ENZYME_INHIBITION_IC50: {
    experiment_type: "ENZYME_INHIBITION_IC50",
    title: "Acetylcholinesterase inhibition by compound PX-17",
    replicates: { technical: 3, biological: 1 },
    bsl: "BSL-1",
    plate_format: "96-well",
    detection_method: "absorbance",
    sample_count: 30,
    enzyme: "acetylcholinesterase",
    substrate: "acetylthiocholine",
    inhibitor: { name: "PX-17", concentrations_um: [100, 30, 10, 3, 1, 0.3, 0.1, 0.03, 0.01, 0.003] },
    assay_type: "COLORIMETRIC",
    incubation_minutes: 30,
    temperature_c: 25,
    wavelength_nm: 412,
    positive_control: null,
  },
  QPCR_EXPRESSION: {
    experiment_type: "QPCR_EXPRESSION",
    title: "IL6 expression after PX-17 in HepG2",
    replicates: { technical: 3, biological: 3 },
    bsl: "BSL-1",
    plate_format: "96-well",
    detection_method: "qpcr_fluorescence",
    sample_count: 6,
    targets: ["IL6"],
    reference_genes: ["GAPDH", "ACTB"],
    chemistry: "SYBR_GREEN",
    samples: ["vehicle-1", "vehicle-2", "vehicle-3", "PX-17-1", "PX-17-2", "PX-17-3"],
    reaction_volume_ul: 20,
    cycles: 40,
  },
  SANGER_PLASMID_VERIFICATION: {
    experiment_type: "SANGER_PLASMID_VERIFICATION",
    title: "Verify the GFP insert of pUC19-GFP",
    replicates: { technical: 1, biological: 1 },
    bsl: "BSL-1",
    plate_format: "96-well",
    detection_method: "sanger_sequencing",
    sample_count: 4,
    template_type: "plasmid",
    templates: 2,
    primers: [
      { name: "M13F", sequence: "GTAAAACGACGGCCAGT" },
      { name: "M13R", sequence: "CAGGAAACAGCTATGAC" },
    ],
    expected_insert_size_bp: 720,
  },
  MICROBIAL_GROWTH_MATRIX: {
    experiment_type: "MICROBIAL_GROWTH_MATRIX",
    title: "E. coli growth across glucose levels",
    replicates: { technical: 3, biological: 1 },
    bsl: "BSL-1",
    plate_format: "96-well",
    detection_method: "absorbance",
    sample_count: 6,
    organism: { name: "Escherichia coli", strain: "K-12 MG1655" },
    medium: "M9 minimal medium",
    conditions: [
      { label: "glucose=0.1 %", settings: [{ variable: "glucose", value: 0.1, unit: "%" }] },
      { label: "glucose=0.4 %", settings: [{ variable: "glucose", value: 0.4, unit: "%" }] },
    ],
    temperature_c: 37,
    duration_hours: 24,
    read_interval_minutes: 15,
    aeration: "shaking",
  },
  CUSTOM: {
    experiment_type: "CUSTOM",
    title: "Biofilm crystal-violet staining",
    replicates: { technical: 3, biological: 1 },
    bsl: "BSL-1",
    plate_format: "96-well",
    detection_method: "absorbance",
    sample_count: 12,
    steps: [
      { action: "Grow biofilm in 96-well plate", duration_minutes: 1440, temperature_c: 37 },
      { action: "Wash twice with PBS", duration_minutes: null, temperature_c: null },
      { action: "Stain with 0.1% crystal violet", duration_minutes: 15, temperature_c: 25 },
      { action: "Solubilise in 30% acetic acid and read at 550 nm", duration_minutes: 10, temperature_c: 25 },
    ],
  },
});
