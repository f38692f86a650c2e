/**
 * One request of each experiment type written the way clients of other experiment marketplaces
 * write them: whole documents in the intake model's other spellings rather than ours —
 * `hypothesis.why_interesting`, `compliance.bsl` as "BSL1" or "BSL-1", the budget and turnaround
 * in `turnaround_budget`, `replicates.technical_replicates` / `biological_replicates`,
 * `acceptance_criteria.statistical_requirements.test`, custom protocol steps that carry
 * critical parameters only where something is critical, and an empty `materials_provided`.
 *
 * Every one must be accepted as sent (POST /validate valid, POST /experiments 201): the
 * experiments service's tests and the end-to-end tests through the gateway both check them
 * (exported through "@petri/experiments/testing"). Deep-frozen: copy with structuredClone
 * before changing one. No hard deadlines, so they stay valid whatever the date.
 */
import type { ExperimentType } from "../contracts.js";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const item of Object.values(value as Record<string, unknown>)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

const noHazards = {
  human_derived_material: false,
  animal_derived_material: false,
  hazardous_chemicals: false,
};

export const clientIntakes: Readonly<Record<ExperimentType, unknown>> = deepFreeze({
  SANGER_PLASMID_VERIFICATION: {
    experiment_type: "SANGER_PLASMID_VERIFICATION",
    title: "Verify the GFP insert of pUC19-GFP",
    hypothesis: {
      statement: "The pUC19-GFP clone carries the 1.2 kb GFP insert with 100% identity to the reference map.",
      null_hypothesis:
        "The pUC19-GFP clone does not carry the 1.2 kb GFP insert with 100% identity to the reference map.",
      why_interesting: "The construct is used in later experiments only once its insert is verified.",
    },
    compliance: { bsl: "BSL1", ...noHazards },
    turnaround_budget: {
      desired_turnaround_days: 7,
      budget_max_usd: 120,
      budget_flexibility: "strict",
      priority: "standard",
    },
    deliverables: {
      raw_data_formats: ["AB1", "SEQ"],
      required_processed_outputs: ["ALIGNMENT_VS_REFERENCE", "QC_SUMMARY"],
      minimum_package_level: "L1_BASIC_QC",
      photo_documentation: "none",
    },
    privacy: "open",
    materials_provided: [
      {
        name: "pUC19-GFP miniprep",
        specification: "100 ng/µL in water",
        quantity: { value: 20, unit: "µL" },
        storage_requirements: "-20 °C",
        hazardous: false,
      },
    ],
    replicates: { technical_replicates: 3, biological_replicates: 1 },
    acceptance_criteria: {
      success_conditions: [
        { metric: "QV20 coverage of the insert", operator: "gte", threshold: 100, unit: "%" },
      ],
      failure_conditions: [
        { condition: "Any point mutation in the insert", interpretation: "The clone is not the construct." },
      ],
    },
    sanger: {
      template_type: "plasmid",
      template_concentration_ng_ul: 100,
      primers: [
        { name: "M13F", sequence: "GTAAAACGACGGCCAGT", provided_by: "operator" },
        { name: "M13R", sequence: "CAGGAAACAGCTATGAC", provided_by: "operator" },
      ],
      expected_insert_size_bp: 1200,
      reference_sequence_attached: true,
      regions_of_interest: [{ name: "GFP insert", start_bp: 400, end_bp: 1600 }],
    },
  },
  QPCR_EXPRESSION: {
    experiment_type: "QPCR_EXPRESSION",
    title: "IL6 expression after compound PX-17",
    hypothesis: {
      statement:
        "Compound PX-17 at 10 µM for 6 h increases IL6 expression at least 2-fold in HepG2 cells compared with vehicle.",
      null_hypothesis:
        "Compound PX-17 at 10 µM for 6 h does not change IL6 expression in HepG2 cells compared with vehicle.",
      why_interesting: "PX-17 is a lead from an earlier screen; this experiment decides whether to continue.",
    },
    compliance: { bsl: "BSL-1", ...noHazards, human_derived_material: true },
    turnaround_budget: {
      desired_turnaround_days: 14,
      budget_max_usd: 400,
      budget_flexibility: "flexible_10",
      priority: "standard",
    },
    deliverables: {
      raw_data_formats: ["CSV", "XLSX"],
      required_processed_outputs: ["CT_TABLE", "DDCT_FOLD_CHANGE", "MELT_CURVES", "QC_SUMMARY"],
      minimum_package_level: "L2_INTERPRETATION",
      photo_documentation: "none",
      lab_notebook_scan: true,
    },
    privacy: "delayed_6mo",
    materials_provided: [
      {
        name: "HepG2 total RNA",
        specification: "RIN >= 7, 12 samples",
        quantity: { value: 2, unit: "µg" },
        storage_requirements: "-80 °C",
        hazardous: false,
      },
    ],
    replicates: { technical: 3, biological: 3 },
    acceptance_criteria: {
      success_conditions: [{ metric: "IL6 fold change", operator: "gte", threshold: 2, unit: "fold" }],
      failure_conditions: [
        { condition: "NTC amplifies before Cq 35", interpretation: "Contamination; the plate is rerun." },
      ],
      statistical_requirements: { significance_level: 0.05, test: "t_test" },
    },
    qpcr: {
      chemistry: "SYBR_GREEN",
      targets: [
        {
          gene_symbol: "IL6",
          primer_sequences: { forward: "ACTCACCTCTTCAGAACGAATTG", reverse: "CCATCTTTGGAAGGTTCAGGTTG" },
        },
      ],
      housekeeping_genes: ["GAPDH", "ACTB"],
      sample_type: "RNA",
      number_of_samples: 12,
      conditions: [
        { name: "vehicle", description: "0.1% DMSO for 6 h" },
        { name: "treated", description: "PX-17 at 10 µM for 6 h" },
      ],
    },
  },
  CELL_VIABILITY_IC50: {
    experiment_type: "CELL_VIABILITY_IC50",
    title: "HepG2 viability IC50 of PX-17 (72 h)",
    hypothesis: {
      statement: "Compound PX-17 reduces HepG2 viability after 72 h with an IC50 below 1 µM.",
      null_hypothesis: "Compound PX-17 does not reduce HepG2 viability after 72 h with an IC50 below 1 µM.",
      why_interesting: "PX-17 is a lead from an earlier screen; this experiment decides whether to continue.",
    },
    compliance: { bsl: "BSL1", ...noHazards, human_derived_material: true },
    turnaround_budget: {
      desired_turnaround_days: 14,
      budget_max_usd: 600,
      budget_flexibility: "flexible_10",
      priority: "standard",
    },
    deliverables: {
      raw_data_formats: ["CSV", "XLSX"],
      required_processed_outputs: ["NORMALIZED_VIABILITY_PERCENT", "IC50_CURVE_FIT", "QC_SUMMARY"],
      minimum_package_level: "L2_INTERPRETATION",
      photo_documentation: "key_steps",
      lab_notebook_scan: true,
    },
    privacy: "open",
    materials_provided: [
      {
        name: "PX-17",
        specification: "10 mM stock in DMSO, >= 95% pure by HPLC",
        quantity: { value: 100, unit: "µL" },
        storage_requirements: "-20 °C, protect from light",
        hazardous: false,
      },
    ],
    replicates: { technical_replicates: 3, biological_replicates: 3 },
    acceptance_criteria: {
      success_conditions: [{ metric: "IC50", operator: "lt", threshold: 1, unit: "µM" }],
      failure_conditions: [
        {
          condition: "Vehicle control outside its historical range",
          interpretation: "Run invalid; the lab repeats it.",
        },
      ],
      statistical_requirements: { significance_level: 0.05 },
    },
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
  },
  ENZYME_INHIBITION_IC50: {
    experiment_type: "ENZYME_INHIBITION_IC50",
    title: "Carbonic anhydrase II inhibition by PX-17",
    hypothesis: {
      statement: "PX-17 inhibits carbonic anhydrase II esterase activity with an IC50 below 100 nM at 25 °C.",
      null_hypothesis:
        "PX-17 does not inhibit carbonic anhydrase II esterase activity with an IC50 below 100 nM at 25 °C.",
      why_interesting: "PX-17 is a lead from an earlier screen; this experiment decides whether to continue.",
    },
    compliance: { bsl: "BSL-1", ...noHazards },
    turnaround_budget: {
      desired_turnaround_days: 10,
      budget_max_usd: 450,
      budget_flexibility: "flexible_25",
      priority: "standard",
    },
    deliverables: {
      raw_data_formats: ["CSV"],
      required_processed_outputs: ["IC50_CURVE_FIT", "KINETIC_PARAMETERS", "QC_SUMMARY"],
      minimum_package_level: "L2_INTERPRETATION",
      photo_documentation: "key_steps",
      lab_notebook_scan: true,
    },
    privacy: "open",
    materials_provided: [
      {
        name: "PX-17",
        specification: "10 mM in DMSO",
        quantity: { value: 50, unit: "µL" },
        storage_requirements: "-20 °C",
        hazardous: false,
      },
    ],
    replicates: { technical: 3, biological: 1 },
    acceptance_criteria: {
      success_conditions: [{ metric: "IC50", operator: "lt", threshold: 100, unit: "nM" }],
      failure_conditions: [
        {
          condition: "Acetazolamide control outside its historical range",
          interpretation: "Run invalid; the lab repeats it.",
        },
      ],
      statistical_requirements: { significance_level: 0.05 },
    },
    enzyme_inhibition: {
      target_enzyme: "Carbonic anhydrase II",
      enzyme_source: "recombinant human, E. coli-expressed",
      enzyme_concentration: { value: 10, unit: "nM" },
      assay_type: "COLORIMETRIC",
      substrate: "4-nitrophenyl acetate",
      substrate_concentration: { value: 1, unit: "mM" },
      inhibitor_name: "PX-17",
      inhibitor_concentrations: [
        { value: 1, unit: "nM" },
        { value: 3, unit: "nM" },
        { value: 9, unit: "nM" },
        { value: 27, unit: "nM" },
        { value: 81, unit: "nM" },
        { value: 243, unit: "nM" },
        { value: 729, unit: "nM" },
        { value: 2187, unit: "nM" },
      ],
      incubation_time_minutes: 15,
      incubation_temperature_c: 25,
      buffer: "20 mM Tris-sulfate pH 7.5",
      detection_wavelength_nm: 400,
      positive_control_inhibitor: "Acetazolamide",
    },
  },
  MICROBIAL_GROWTH_MATRIX: {
    experiment_type: "MICROBIAL_GROWTH_MATRIX",
    title: "E. coli growth across glucose and salt",
    hypothesis: {
      statement:
        "E. coli MG1655 grows at least 20% faster at 0.4% glucose than at 0.1% glucose in M9 at 37 °C.",
      null_hypothesis:
        "E. coli MG1655 growth rate does not differ between 0.4% and 0.1% glucose in M9 at 37 °C.",
      why_interesting: "The growth window sets the conditions of a later fermentation.",
    },
    compliance: { bsl: "BSL1", ...noHazards },
    turnaround_budget: {
      desired_turnaround_days: 14,
      budget_max_usd: 300,
      budget_flexibility: "flexible_10",
      priority: "standard",
    },
    deliverables: {
      raw_data_formats: ["CSV", "XLSX"],
      required_processed_outputs: ["GROWTH_RATE_LAG_MAXOD", "QC_SUMMARY"],
      minimum_package_level: "L2_INTERPRETATION",
      photo_documentation: "key_steps",
      lab_notebook_scan: true,
    },
    privacy: "open",
    materials_provided: [],
    replicates: { technical_replicates: 3, biological_replicates: 2 },
    acceptance_criteria: {
      success_conditions: [{ metric: "growth rate ratio", operator: "gte", threshold: 1.2, unit: "ratio" }],
      failure_conditions: [
        { condition: "No growth in any condition", interpretation: "Inoculum not viable." },
      ],
      statistical_requirements: { significance_level: 0.05, test: "anova" },
    },
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
      read_schedule: [
        { time_hours: 0, measurement: "OD600" },
        { time_hours: 0.5, measurement: "OD600" },
        { time_hours: 1, measurement: "OD600" },
        { time_hours: 1.5, measurement: "OD600" },
        { time_hours: 2, measurement: "OD600" },
      ],
      endpoint_only: false,
    },
  },
  MIC_MBC_ASSAY: {
    experiment_type: "MIC_MBC_ASSAY",
    title: "MIC of PX-17 against S. aureus",
    hypothesis: {
      statement: "Compound PX-17 inhibits S. aureus ATCC 29213 growth with a MIC of at most 4 µg/mL.",
      null_hypothesis: "Compound PX-17 does not inhibit S. aureus ATCC 29213 growth at 4 µg/mL or below.",
      why_interesting: "PX-17 is a lead from an earlier screen; this experiment decides whether to continue.",
    },
    compliance: { bsl: "BSL2", ...noHazards },
    turnaround_budget: {
      desired_turnaround_days: 10,
      budget_max_usd: 350,
      budget_flexibility: "strict",
      priority: "standard",
    },
    deliverables: {
      raw_data_formats: ["CSV", "IMAGE_FILES"],
      required_processed_outputs: ["MIC_VALUE", "QC_SUMMARY"],
      minimum_package_level: "L1_BASIC_QC",
      photo_documentation: "key_steps",
    },
    privacy: "open",
    materials_provided: [
      {
        name: "PX-17",
        specification: "powder, >= 95% pure",
        quantity: { value: 5, unit: "mg" },
        storage_requirements: "room temperature, dry",
        hazardous: false,
      },
    ],
    replicates: { technical: 3, biological: 2 },
    acceptance_criteria: {
      success_conditions: [{ metric: "MIC", operator: "lte", threshold: 4, unit: "µg/mL" }],
      failure_conditions: [
        {
          condition: "Vancomycin control fails",
          interpretation: "Assay technical failure; the lab repeats it.",
        },
      ],
    },
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
      determine_mbc: false,
      method: "broth_microdilution",
    },
  },
  ZONE_OF_INHIBITION: {
    experiment_type: "ZONE_OF_INHIBITION",
    title: "Disk diffusion of PX-17 on S. aureus",
    hypothesis: {
      statement: "A 30 µg PX-17 disk gives an inhibition zone of at least 15 mm on S. aureus at 35 °C.",
      null_hypothesis:
        "A 30 µg PX-17 disk does not give an inhibition zone of at least 15 mm on S. aureus at 35 °C.",
      why_interesting: "PX-17 is a lead from an earlier screen; this experiment decides whether to continue.",
    },
    compliance: { bsl: "BSL-2", ...noHazards },
    turnaround_budget: {
      desired_turnaround_days: 7,
      budget_max_usd: 200,
      budget_flexibility: "strict",
      priority: "standard",
    },
    deliverables: {
      raw_data_formats: ["CSV", "IMAGE_FILES"],
      required_processed_outputs: ["ZONE_DIAMETER_MM", "QC_SUMMARY"],
      minimum_package_level: "L1_BASIC_QC",
      photo_documentation: "all_steps",
      lab_notebook_scan: true,
    },
    privacy: "open",
    materials_provided: [
      {
        name: "PX-17",
        quantity: { value: 2, unit: "mg" },
        storage_requirements: "room temperature, dry",
        hazardous: false,
      },
    ],
    replicates: { technical_replicates: 3, biological_replicates: 2 },
    acceptance_criteria: {
      success_conditions: [{ metric: "zone diameter", operator: "gte", threshold: 15, unit: "mm" }],
      failure_conditions: [
        {
          condition: "Cefoxitin control zone outside its range",
          interpretation: "Assay technical failure; the lab repeats it.",
        },
      ],
    },
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
  },
  CUSTOM: {
    experiment_type: "CUSTOM",
    title: "Crystal violet biofilm assay with PX-17",
    hypothesis: {
      statement:
        "PX-17 at 8 µg/mL reduces P. aeruginosa PAO1 biofilm biomass by at least 50% compared with untreated wells.",
      null_hypothesis:
        "PX-17 at 8 µg/mL does not reduce P. aeruginosa PAO1 biofilm biomass compared with untreated wells.",
      why_interesting: "PX-17 is a lead from an earlier screen; this experiment decides whether to continue.",
    },
    compliance: { bsl: "BSL2", ...noHazards },
    turnaround_budget: {
      desired_turnaround_days: 10,
      budget_max_usd: 900,
      budget_flexibility: "flexible_10",
      priority: "standard",
    },
    deliverables: {
      raw_data_formats: ["CSV", "IMAGE_FILES"],
      required_processed_outputs: ["QC_SUMMARY"],
      minimum_package_level: "L1_BASIC_QC",
      photo_documentation: "all_steps",
      lab_notebook_scan: true,
    },
    privacy: "delayed_6mo",
    materials_provided: [
      {
        name: "P. aeruginosa PAO1",
        specification: "glycerol stock",
        storage_requirements: "-80 °C",
        hazardous: false,
      },
    ],
    replicates: { technical: 6, biological: 3 },
    acceptance_criteria: {
      success_conditions: [{ metric: "A590 reduction", operator: "gte", threshold: 50, unit: "%" }],
      failure_conditions: [
        { condition: "No biofilm in untreated wells", interpretation: "The strain did not form a biofilm." },
      ],
    },
    custom_protocol: {
      protocol_title: "Crystal violet biofilm biomass",
      protocol_version: "1.0",
      protocol_attached: false,
      brief_description:
        "Static 96-well biofilms of P. aeruginosa PAO1 with and without PX-17, stained with crystal violet.",
      steps: [
        {
          step_number: 1,
          action:
            "Inoculate 100 µL of a 1:100 dilution of an overnight culture per well, with PX-17 at 8 µg/mL or untreated.",
          duration: { value: 24, unit: "hours" },
          temperature: { value: 37, unit: "C" },
          expected_outcome: "A biofilm ring in untreated wells.",
        },
        {
          step_number: 2,
          action: "Remove planktonic cells and wash three times with water.",
          critical_parameters: ["gentle washing without scraping"],
          expected_outcome: "Attached biofilm remains.",
        },
        {
          step_number: 3,
          action: "Stain with 125 µL 0.1% crystal violet, wash, solubilise in 30% acetic acid.",
          duration: { value: 30, unit: "minutes" },
          critical_parameters: ["15 min staining", "same wash volume in every well"],
          expected_outcome: "Purple solution proportional to biomass.",
        },
        {
          step_number: 4,
          action: "Read absorbance at 590 nm.",
          expected_outcome: "A590 of untreated wells above 1.0.",
        },
      ],
      equipment_required: [
        { name: "Absorbance plate reader", specifications: "590 nm filter", required: true },
        { name: "Static incubator", specifications: "37 °C", required: true },
      ],
      safety_notes: ["Autoclave all plates before disposal."],
    },
  },
});
