/**
 * Intakes for tests, in the shapes the experiments service accepts (copied as literals from its
 * fixtures: services may not import each other). Deep-frozen: structuredClone before changing.
 *
 * - MINIMAL_INTAKES: the least a valid request of each type carries (most parameters defaulted).
 * - FULL_INTAKES: every parameter the plan uses stated (confidence 1).
 * - MIC_CLOUD_INTAKE: the cloud-lab MIC form of docs/api.md.
 */
import type { ExperimentType } from "@petri/contracts";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const item of Object.values(value as Record<string, unknown>)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

type Intakes = Readonly<Record<ExperimentType, { [key: string]: Json }>>;

export const MINIMAL_INTAKES: Intakes = deepFreeze<Intakes>({
  SANGER_PLASMID_VERIFICATION: {
    experiment_type: "SANGER_PLASMID_VERIFICATION",
    title: "Verify the GFP insert of pUC19-GFP",
    hypothesis: { statement: "The pUC19-GFP clone carries the GFP insert without mutations." },
    turnaround_budget: { budget_max_usd: 100 },
    sanger: { template_type: "plasmid" },
  },
  QPCR_EXPRESSION: {
    experiment_type: "QPCR_EXPRESSION",
    title: "IL6 expression after compound PX-17",
    hypothesis: {
      statement: "Compound PX-17 at 10 µM increases IL6 expression at least 2-fold in HepG2 cells.",
    },
    constraints: { budget_max_usd: 350 },
    qpcr: {
      targets: [{ gene_symbol: "IL6" }],
      housekeeping_genes: ["GAPDH"],
      sample_type: "cDNA",
      number_of_samples: 6,
    },
  },
  CELL_VIABILITY_IC50: {
    experiment_type: "CELL_VIABILITY_IC50",
    title: "HepG2 viability IC50 of PX-17",
    hypothesis: { statement: "Compound PX-17 reduces HepG2 viability with an IC50 below 1 µM." },
    turnaround_budget: { budget_max_usd: 500 },
    cell_viability: { cell_line: "HepG2", compound_name: "PX-17" },
  },
  ENZYME_INHIBITION_IC50: {
    experiment_type: "ENZYME_INHIBITION_IC50",
    title: "Carbonic anhydrase II inhibition by PX-17",
    hypothesis: { statement: "PX-17 inhibits carbonic anhydrase II with an IC50 below 100 nM." },
    constraints: { budget_max_usd: 400 },
    enzyme_inhibition: { target_enzyme: "Carbonic anhydrase II", inhibitor_name: "PX-17" },
  },
  MICROBIAL_GROWTH_MATRIX: {
    experiment_type: "MICROBIAL_GROWTH_MATRIX",
    title: "E. coli growth across glucose levels",
    hypothesis: { statement: "E. coli grows faster at 0.4% glucose than at 0.1% glucose in M9 medium." },
    turnaround_budget: { budget_max_usd: 250 },
    microbial_growth: {
      organism: "Escherichia coli",
      condition_matrix: [
        {
          variable: "glucose",
          values: [
            { value: 0.1, unit: "%" },
            { value: 0.4, unit: "%" },
          ],
        },
      ],
    },
  },
  MIC_MBC_ASSAY: {
    experiment_type: "MIC_MBC_ASSAY",
    title: "MIC of PX-17 against S. aureus",
    hypothesis: { statement: "Compound PX-17 inhibits S. aureus growth with a MIC of at most 4 µg/mL." },
    constraints: { budget_max_usd: 300 },
    mic_mbc: { organism: "Staphylococcus aureus", compound_name: "PX-17" },
  },
  ZONE_OF_INHIBITION: {
    experiment_type: "ZONE_OF_INHIBITION",
    title: "Disk diffusion of PX-17 on S. aureus",
    hypothesis: { statement: "A 30 µg PX-17 disk gives an inhibition zone of at least 15 mm on S. aureus." },
    turnaround_budget: { budget_max_usd: 150 },
    zone_of_inhibition: { organism: "Staphylococcus aureus", compound_name: "PX-17" },
  },
  CUSTOM: {
    experiment_type: "CUSTOM",
    title: "Crystal violet biofilm assay",
    hypothesis: { statement: "PX-17 at 8 µg/mL reduces P. aeruginosa biofilm biomass by at least 50%." },
    turnaround_budget: { budget_max_usd: 500 },
    custom_protocol: {
      steps: [
        {
          step_number: 1,
          action: "Grow biofilms in a 96-well plate for 24 h with and without PX-17.",
          critical_parameters: ["static incubation at 37 °C"],
          expected_outcome: "Visible biofilm ring in untreated wells.",
        },
        {
          step_number: 2,
          action: "Stain with 0.1% crystal violet, wash, solubilise and read A590.",
          critical_parameters: ["three gentle washes"],
          expected_outcome: "A590 of untreated wells above 1.0.",
        },
      ],
      equipment_required: [{ name: "Absorbance plate reader" }],
    },
    materials_provided: [{ name: "Crystal violet 0.1% (w/v)" }],
  },
});

const replicates33 = { technical: 3, biological: 3 };

export const FULL_INTAKES: Intakes = deepFreeze<Intakes>({
  SANGER_PLASMID_VERIFICATION: {
    experiment_type: "SANGER_PLASMID_VERIFICATION",
    title: "Verify the 1.2 kb GFP insert of pUC19-GFP",
    compliance: { bsl: "BSL1", sds_attached: false },
    sanger: {
      template_type: "plasmid",
      template_concentration_ng_ul: 100,
      primers: [
        { name: "M13F", sequence: "GTAAAACGACGGCCAGT", provided_by: "operator" },
        { name: "M13R", sequence: "CAGGAAACAGCTATGAC", provided_by: "operator" },
        { name: "GFP-mid-F", sequence: "ctgaccctgaagttcatctg", provided_by: "requester" },
      ],
      expected_insert_size_bp: 1200,
      reference_sequence_attached: true,
      regions_of_interest: [{ name: "GFP insert", start_bp: 400, end_bp: 1600 }],
    },
    replicates: { technical: 1, biological: 1 },
  },
  QPCR_EXPRESSION: {
    experiment_type: "QPCR_EXPRESSION",
    title: "IL6 and TNF expression after compound PX-17",
    compliance: { bsl: "BSL-1", human_derived_material: true },
    qpcr: {
      chemistry: "SYBR_GREEN",
      targets: [
        {
          gene_symbol: "IL6",
          primer_sequences: { forward: "ACTCACCTCTTCAGAACGAATTG", reverse: "CCATCTTTGGAAGGTTCAGGTTG" },
        },
        { gene_symbol: "TNF", assay_id: "Hs00174128_m1" },
      ],
      housekeeping_genes: ["GAPDH", "ACTB"],
      sample_type: "RNA",
      number_of_samples: 12,
      conditions: [
        { name: "vehicle", description: "0.1% DMSO for 6 h" },
        { name: "treated", description: "PX-17 at 10 µM for 6 h" },
      ],
    },
    replicates: replicates33,
  },
  CELL_VIABILITY_IC50: {
    experiment_type: "CELL_VIABILITY_IC50",
    title: "HepG2 viability IC50 of PX-17 (72 h)",
    compliance: { bsl: "bsl-1", human_derived_material: true },
    cell_viability: {
      cell_line: "HepG2",
      cell_source: "ATCC HB-8065",
      assay_type: "CELLTITER_GLO",
      compound_name: "PX-17",
      compound_stock_concentration: { value: 10, unit: "mM" },
      solvent: "DMSO",
      dose_range: { min: 1, max: 30000, unit: "nM", points: 10, dilution_series: "3-fold" },
      exposure_time_hours: 72,
      seeding_density_cells_per_well: 2000,
      plate_format: "384-well",
      positive_control: "Staurosporine 1 µM",
      include_z_factor: true,
    },
    replicates: replicates33,
  },
  ENZYME_INHIBITION_IC50: {
    experiment_type: "ENZYME_INHIBITION_IC50",
    title: "Carbonic anhydrase II inhibition by PX-17",
    compliance: { bsl: "BSL1" },
    enzyme_inhibition: {
      target_enzyme: "Carbonic anhydrase II",
      enzyme_source: "recombinant human, E. coli-expressed",
      enzyme_concentration: { value: 10, unit: "nM" },
      assay_type: "COLORIMETRIC",
      substrate: "4-nitrophenyl acetate",
      substrate_concentration: { value: 1, unit: "mM" },
      inhibitor_name: "PX-17",
      inhibitor_concentrations: [1, 3, 9, 27, 81, 243, 729, 2187, 6561].map((value) => ({
        value,
        unit: "nM",
      })),
      incubation_time_minutes: 15,
      incubation_temperature_c: 25,
      buffer: "20 mM Tris-sulfate pH 7.5",
      detection_wavelength_nm: 400,
      positive_control_inhibitor: "Acetazolamide",
    },
    replicates: replicates33,
  },
  MICROBIAL_GROWTH_MATRIX: {
    experiment_type: "MICROBIAL_GROWTH_MATRIX",
    title: "E. coli growth across glucose and salt",
    compliance: { bsl: "BSL1" },
    microbial_growth: {
      organism: "Escherichia coli",
      strain: "MG1655",
      organism_source: "DSMZ",
      base_medium: "M9 minimal medium",
      condition_matrix: [
        {
          variable: "glucose",
          values: [
            { value: 0.1, unit: "%" },
            { value: 0.4, unit: "%" },
          ],
        },
        {
          variable: "NaCl",
          values: [
            { value: 50, unit: "mM" },
            { value: 300, unit: "mM" },
          ],
        },
      ],
      incubation_temperature_c: 37,
      incubation_hours: 12,
      aeration: "shaking",
      read_schedule: Array.from({ length: 49 }, (_, i) => ({ time_hours: i * 0.25, measurement: "OD600" })),
      endpoint_only: false,
    },
    replicates: replicates33,
  },
  MIC_MBC_ASSAY: {
    experiment_type: "MIC_MBC_ASSAY",
    title: "MIC and MBC of PX-17 against S. aureus",
    compliance: { bsl: "BSL2" },
    mic_mbc: {
      organism: "Staphylococcus aureus",
      strain: "ATCC 29213",
      organism_source: "ATCC",
      medium: "Cation-adjusted Mueller-Hinton broth",
      compound_name: "PX-17",
      concentration_range: { min: 0.125, max: 64, unit: "µg/mL", dilution_series: "2-fold" },
      inoculum_cfu_ml: 500000,
      incubation_hours: 18,
      incubation_temperature_c: 35,
      positive_control_antibiotic: "Vancomycin",
      determine_mbc: true,
      method: "broth_microdilution",
    },
    replicates: replicates33,
  },
  ZONE_OF_INHIBITION: {
    experiment_type: "ZONE_OF_INHIBITION",
    title: "Disk diffusion of PX-17 on S. aureus",
    compliance: { bsl: "BSL-2" },
    zone_of_inhibition: {
      organism: "Staphylococcus aureus",
      strain: "ATCC 25923",
      medium: "Mueller-Hinton agar",
      compound_name: "PX-17",
      disk_loading: [
        { amount: 10, unit: "µg" },
        { amount: 30, unit: "µg" },
      ],
      disk_diameter_mm: 6,
      positive_control: "Cefoxitin 30 µg disk",
      incubation_hours: 18,
      incubation_temperature_c: 35,
    },
    replicates: replicates33,
  },
  CUSTOM: {
    experiment_type: "CUSTOM",
    title: "Crystal violet biofilm assay with PX-17",
    compliance: { bsl: "BSL-2" },
    protocol: {
      type: "custom",
      custom_protocol: {
        title: "Crystal violet biofilm biomass",
        version: "1.0",
        steps: [
          {
            step_number: 1,
            action:
              "Inoculate 100 µL of a 1:100 dilution of an overnight culture per well, with PX-17 at 8 µg/mL or untreated.",
            duration: { value: 24, unit: "hours" },
            temperature: { value: 37, unit: "C", tolerance: 1 },
            critical_parameters: ["static incubation", "six wells per condition"],
            expected_outcome: "A biofilm ring in untreated wells.",
          },
          {
            step_number: 2,
            action: "Remove planktonic cells and wash three times with water.",
            duration: { value: 10, unit: "minutes" },
            critical_parameters: ["gentle washing without scraping"],
            expected_outcome: "Attached biofilm remains.",
          },
          {
            step_number: 3,
            action: "Stain with 125 µL 0.1% crystal violet, wash, solubilise in 30% acetic acid.",
            duration: { value: 30, unit: "minutes" },
            temperature: { value: 22, unit: "C", tolerance: 3 },
            critical_parameters: ["15 min staining", "same wash volume in every well"],
            expected_outcome: "Purple solution proportional to biomass.",
          },
          {
            step_number: 4,
            action: "Read absorbance at 590 nm.",
            duration: { value: 5, unit: "minutes" },
            critical_parameters: ["blank wells without cells"],
            expected_outcome: "A590 of untreated wells above 1.0.",
          },
        ],
        equipment_required: [
          { name: "Absorbance plate reader", specifications: "590 nm filter" },
          { name: "Static incubator", specifications: "37 °C" },
        ],
        safety_notes: ["Crystal violet stains skin: wear gloves."],
      },
      replicates: { technical_replicates: 6, biological_replicates: 3 },
    },
  },
});

/** MIC in the cloud-lab form (docs/api.md, Cloud labs). */
export const MIC_CLOUD_INTAKE: { [key: string]: Json } = deepFreeze<{ [key: string]: Json }>({
  experiment_type: "MIC_MBC_ASSAY",
  title: "MIC of two compounds against two organisms",
  hypothesis: {
    statement: "PX-17 and PX-18 inhibit E. coli and S. aureus growth with MICs of at most 4 µg/mL.",
  },
  constraints: { budget_max_usd: 400 },
  mic_mbc_assay: {
    target_organisms: ["Escherichia coli ATCC 25922", "Staphylococcus aureus ATCC 29213"],
    test_compounds: [
      { name: "PX-17", concentrations_ug_ml: [0.125, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64] },
      { name: "PX-18", concentrations_ug_ml: [0.125, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64] },
    ],
  },
});
