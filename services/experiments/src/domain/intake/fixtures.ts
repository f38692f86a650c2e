/**
 * Valid experiment requests for tests across the experiments service (and the estimator and
 * templates modules). Deep-frozen: copy with structuredClone before changing one.
 *
 * - validRequests: the minimal valid request of each type (submit mode), in mixed spellings
 *   (constraints.* or turnaround_budget.*, "BSL1"-style levels).
 * - fullRequests: every section filled in; each is valid and raises no warning at FIXTURE_NOW
 *   (tests assert this).
 * - specialRequests: the cloud-lab MIC form, a standard template, a protocol design request.
 */
import type { ExperimentType } from "../contracts.js";

/** The clock used with the fixtures (hard deadlines lie after it). */
export const FIXTURE_NOW = new Date("2026-11-21T10:00:00.000Z");

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const item of Object.values(value as Record<string, unknown>)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

export const validRequests: Record<ExperimentType, unknown> = deepFreeze({
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

const acceptanceFor = (
  metric: string,
  operator: string,
  threshold: unknown,
  unit: string,
  description: string,
) => ({
  success_conditions: [{ metric, operator, threshold, unit, description }],
  failure_conditions: [
    {
      condition: "Vehicle control outside its historical range",
      interpretation: "Run invalid; the lab repeats it.",
    },
  ],
  statistical_requirements: { significance_level: 0.05, statistical_test: "t_test", power: 0.8 },
});

const commonFull = (budget: number) => ({
  metadata: {
    intake_id: "3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c",
    submitter_type: "ai_agent",
    agent_identifier: "petri-research-agent/1.2",
    parent_intake_id: "6a0e2b1c-3d4f-4a5b-8c6d-7e8f9a0b1c2d",
    tags: ["screening", "px-17"],
    language: "en",
  },
  privacy: "delayed_6mo",
  replicates: { technical: 3, biological: 3 },
  turnaround_budget: {
    budget_max_usd: budget,
    desired_turnaround_days: 21,
    hard_deadline: "2027-06-30",
    budget_flexibility: "flexible_10",
    priority: "standard",
  },
  communication_preferences: {
    webhook_url: "https://hooks.example.org/petri",
    notification_events: ["claimed", "started", "completed", "issue", "approved", "disputed"],
    preferred_contact: "webhook",
  },
});

const hypothesisFull = (statement: string, nullHypothesis: string) => ({
  statement,
  null_hypothesis: nullHypothesis,
  rationale: "PX-17 is a lead from an earlier screen; this experiment decides whether to continue.",
  prior_work: [{ type: "doi", identifier: "10.1000/xyz123", relevance: "Primary screen that found PX-17." }],
});

export const fullRequests: Record<ExperimentType, unknown> = deepFreeze({
  SANGER_PLASMID_VERIFICATION: {
    experiment_type: "SANGER_PLASMID_VERIFICATION",
    title: "Verify the 1.2 kb GFP insert of pUC19-GFP",
    hypothesis: hypothesisFull(
      "The pUC19-GFP clone carries the 1.2 kb GFP insert with 100% identity to the reference map.",
      "The pUC19-GFP clone does not carry the 1.2 kb GFP insert with 100% identity to the reference map.",
    ),
    compliance: { bsl: "BSL1", sds_attached: false },
    deliverables: {
      minimum_package_level: "L2_INTERPRETATION",
      raw_data_formats: ["AB1", "SEQ"],
      required_processed_outputs: ["ALIGNMENT_VS_REFERENCE", "VARIANT_CALLS", "QC_SUMMARY"],
      photo_documentation: "none",
      lab_notebook_scan: false,
    },
    materials_provided: [
      {
        name: "pUC19-GFP miniprep",
        specification: "100 ng/µL in water",
        quantity: { value: 20, unit: "µL" },
        storage_requirements: "-20 °C",
        provided_by_requester: true,
      },
    ],
    acceptance_criteria: acceptanceFor(
      "QV20 coverage of the insert",
      "gte",
      100,
      "%",
      "Both strands, QV >= 20.",
    ),
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
    ...commonFull(120),
  },
  QPCR_EXPRESSION: {
    experiment_type: "QPCR_EXPRESSION",
    title: "IL6 and TNF expression after compound PX-17",
    hypothesis: hypothesisFull(
      "Compound PX-17 at 10 µM for 6 h increases IL6 expression at least 2-fold in HepG2 cells compared with vehicle.",
      "Compound PX-17 at 10 µM for 6 h does not change IL6 expression in HepG2 cells compared with vehicle.",
    ),
    compliance: { bsl: "BSL-1", human_derived_material: true },
    deliverables: {
      minimum_package_level: "L2_INTERPRETATION",
      raw_data_formats: ["INSTRUMENT_EXPORT", "CSV"],
      required_processed_outputs: ["CT_TABLE", "DDCT_FOLD_CHANGE", "AMPLIFICATION_PLOTS", "MELT_CURVES"],
      photo_documentation: "key_steps",
      lab_notebook_scan: true,
    },
    materials_provided: [
      {
        name: "HepG2 total RNA",
        specification: "RIN >= 7, A260/280 about 2.0, 12 samples",
        quantity: { value: 2, unit: "µg" },
        storage_requirements: "-80 °C",
        provided_by_requester: true,
      },
    ],
    acceptance_criteria: {
      success_conditions: [
        {
          metric: "IL6 fold change",
          operator: "gte",
          threshold: 2,
          unit: "fold",
          description: "ddCq, normalised to GAPDH and ACTB.",
        },
        {
          metric: "amplification efficiency",
          operator: "between",
          threshold: { min: 90, max: 110 },
          unit: "%",
        },
      ],
      failure_conditions: [
        { condition: "NTC amplifies before Cq 35", interpretation: "Contamination; the plate is rerun." },
        {
          condition: "no-RT control within 5 cycles of its sample",
          interpretation: "Genomic DNA; DNase treatment and rerun.",
        },
      ],
      statistical_requirements: { significance_level: 0.05, statistical_test: "t_test", power: 0.8 },
    },
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
    ...commonFull(400),
  },
  CELL_VIABILITY_IC50: {
    experiment_type: "CELL_VIABILITY_IC50",
    title: "HepG2 viability IC50 of PX-17 (72 h)",
    hypothesis: hypothesisFull(
      "Compound PX-17 reduces HepG2 viability after 72 h with an IC50 below 1 µM.",
      "Compound PX-17 does not reduce HepG2 viability after 72 h with an IC50 below 1 µM.",
    ),
    compliance: { bsl: "bsl-1", human_derived_material: true },
    deliverables: {
      minimum_package_level: "L2_INTERPRETATION",
      raw_data_formats: ["CSV", "PDF_REPORT"],
      required_processed_outputs: ["NORMALIZED_VIABILITY_PERCENT", "IC50_CURVE_FIT", "QC_SUMMARY"],
      photo_documentation: "key_steps",
      lab_notebook_scan: true,
    },
    materials_provided: [
      {
        name: "PX-17",
        specification: "10 mM stock in DMSO, >= 95% pure by HPLC",
        quantity: { value: 100, unit: "µL" },
        storage_requirements: "-20 °C, protect from light",
        provided_by_requester: true,
      },
      {
        name: "Dimethyl sulfoxide",
        specification: "cell-culture grade",
        cas_number: "67-68-5",
        provided_by_requester: false,
      },
    ],
    acceptance_criteria: acceptanceFor("IC50", "lt", 1, "µM", "Four-parameter fit with 95% CI, Z' >= 0.5."),
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
    ...commonFull(600),
  },
  ENZYME_INHIBITION_IC50: {
    experiment_type: "ENZYME_INHIBITION_IC50",
    title: "Carbonic anhydrase II inhibition by PX-17",
    hypothesis: hypothesisFull(
      "PX-17 inhibits carbonic anhydrase II esterase activity with an IC50 below 100 nM at 25 °C.",
      "PX-17 does not inhibit carbonic anhydrase II esterase activity with an IC50 below 100 nM at 25 °C.",
    ),
    compliance: { bsl: "BSL1" },
    deliverables: {
      minimum_package_level: "L2_INTERPRETATION",
      raw_data_formats: ["CSV"],
      required_processed_outputs: ["IC50_CURVE_FIT", "KINETIC_PARAMETERS"],
      photo_documentation: "none",
      lab_notebook_scan: true,
    },
    materials_provided: [
      {
        name: "PX-17",
        specification: "10 mM in DMSO",
        quantity: { value: 50, unit: "µL" },
        provided_by_requester: true,
      },
    ],
    acceptance_criteria: acceptanceFor("IC50", "lt", 100, "nM", "Initial rates, four-parameter fit."),
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
    ...commonFull(450),
  },
  MICROBIAL_GROWTH_MATRIX: {
    experiment_type: "MICROBIAL_GROWTH_MATRIX",
    title: "E. coli growth across glucose and salt",
    hypothesis: hypothesisFull(
      "E. coli MG1655 grows at least 20% faster at 0.4% glucose than at 0.1% glucose in M9 at 37 °C.",
      "E. coli MG1655 growth rate does not differ between 0.4% and 0.1% glucose in M9 at 37 °C.",
    ),
    compliance: { bsl: "BSL1" },
    deliverables: {
      minimum_package_level: "L2_INTERPRETATION",
      raw_data_formats: ["CSV"],
      required_processed_outputs: ["GROWTH_RATE_LAG_MAXOD", "ANALYSIS_NOTEBOOK"],
      photo_documentation: "none",
      lab_notebook_scan: true,
    },
    materials_provided: [
      { name: "E. coli MG1655 glycerol stock", storage_requirements: "-80 °C", provided_by_requester: true },
    ],
    acceptance_criteria: acceptanceFor(
      "growth rate ratio",
      "gte",
      1.2,
      "ratio",
      "Logistic fit per well, blank-subtracted.",
    ),
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
    ...commonFull(300),
  },
  MIC_MBC_ASSAY: {
    experiment_type: "MIC_MBC_ASSAY",
    title: "MIC and MBC of PX-17 against S. aureus",
    hypothesis: hypothesisFull(
      "Compound PX-17 inhibits S. aureus ATCC 29213 growth with a MIC of at most 4 µg/mL.",
      "Compound PX-17 does not inhibit S. aureus ATCC 29213 growth at 4 µg/mL or below.",
    ),
    compliance: { bsl: "BSL2" },
    deliverables: {
      minimum_package_level: "L1_BASIC_QC",
      raw_data_formats: ["CSV", "IMAGE_FILES"],
      required_processed_outputs: ["MIC_VALUE", "MBC_VALUE", "QC_SUMMARY"],
      photo_documentation: "all_steps",
      lab_notebook_scan: true,
    },
    materials_provided: [
      {
        name: "PX-17",
        specification: "powder, >= 95% pure",
        quantity: { value: 5, unit: "mg" },
        storage_requirements: "room temperature, dry",
        provided_by_requester: true,
      },
    ],
    acceptance_criteria: acceptanceFor("MIC", "lte", 4, "µg/mL", "QC strain MIC within its published range."),
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
    ...commonFull(350),
  },
  ZONE_OF_INHIBITION: {
    experiment_type: "ZONE_OF_INHIBITION",
    title: "Disk diffusion of PX-17 on S. aureus",
    hypothesis: hypothesisFull(
      "A 30 µg PX-17 disk gives an inhibition zone of at least 15 mm on S. aureus at 35 °C.",
      "A 30 µg PX-17 disk does not give an inhibition zone of at least 15 mm on S. aureus at 35 °C.",
    ),
    compliance: { bsl: "BSL-2" },
    deliverables: {
      minimum_package_level: "L1_BASIC_QC",
      raw_data_formats: ["IMAGE_FILES", "CSV"],
      required_processed_outputs: ["ZONE_DIAMETER_MM"],
      photo_documentation: "all_steps",
      lab_notebook_scan: true,
    },
    materials_provided: [{ name: "PX-17", quantity: { value: 2, unit: "mg" }, provided_by_requester: true }],
    acceptance_criteria: acceptanceFor("zone diameter", "gte", 15, "mm", "Mean of three disks."),
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
    ...commonFull(200),
  },
  CUSTOM: {
    experiment_type: "CUSTOM",
    title: "Crystal violet biofilm assay with PX-17",
    hypothesis: hypothesisFull(
      "PX-17 at 8 µg/mL reduces P. aeruginosa PAO1 biofilm biomass by at least 50% compared with untreated wells.",
      "PX-17 at 8 µg/mL does not reduce P. aeruginosa PAO1 biofilm biomass compared with untreated wells.",
    ),
    compliance: { bsl: "BSL-2" },
    deliverables: {
      minimum_package_level: "L2_INTERPRETATION",
      raw_data_formats: ["CSV", "IMAGE_FILES"],
      required_processed_outputs: ["QC_SUMMARY", "ANALYSIS_NOTEBOOK"],
      photo_documentation: "key_steps",
      lab_notebook_scan: true,
    },
    protocol: {
      type: "custom",
      custom_protocol: {
        title: "Crystal violet biofilm biomass",
        version: "1.0",
        brief_description:
          "Static 96-well biofilms of P. aeruginosa PAO1 with and without PX-17, stained with crystal violet.",
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
        safety_notes: ["Crystal violet stains skin: wear gloves.", "Autoclave all plates before disposal."],
      },
      materials: [
        {
          name: "Crystal violet 0.1% (w/v)",
          quantity: { value: 50, unit: "mL" },
          provided_by_requester: false,
        },
        {
          name: "P. aeruginosa PAO1",
          specification: "glycerol stock",
          storage_requirements: "-80 °C",
          provided_by_requester: true,
        },
      ],
      replicates: { technical_replicates: 6, biological_replicates: 3 },
    },
    acceptance_criteria: acceptanceFor("A590 reduction", "gte", 50, "%", "Relative to untreated wells."),
    ...(({ replicates: _unused, ...rest }) => rest)(commonFull(900)),
  },
});

export const specialRequests = deepFreeze({
  /** MIC in the cloud-lab form (docs/api.md, Cloud labs). */
  micCloudLab: {
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
  },
  /** A request that names a standard template (checked through checkTemplate). */
  standardTemplate: {
    experiment_type: "MIC_MBC_ASSAY",
    title: "MIC of PX-17 with the standard template",
    hypothesis: { statement: "Compound PX-17 inhibits S. aureus growth with a MIC of at most 4 µg/mL." },
    constraints: { budget_max_usd: 300, budget_flexibility: "flexible_25" },
    turnaround_days: 14,
    turnaround_priority: "expedited",
    protocol: {
      type: "standard_template",
      template_id: "mic-broth-microdilution-v1",
      template_parameters: { organism: "Staphylococcus aureus", max_concentration_ug_ml: 64 },
    },
    mic_mbc: { organism: "Staphylococcus aureus", compound_name: "PX-17" },
  },
  /** CUSTOM with a protocol design request: no custom protocol yet; staff design it. */
  protocolDesign: {
    experiment_type: "CUSTOM",
    title: "Design a biofilm dispersal assay",
    hypothesis: { statement: "PX-17 at 8 µg/mL disperses preformed P. aeruginosa biofilms by at least 30%." },
    turnaround_budget: { budget_max_usd: 1500 },
    protocol: {
      type: "protocol_design_requested",
      protocol_design_brief:
        "Measure dispersal of 24 h P. aeruginosa biofilms after 4 h with PX-17; we need a protocol.",
    },
  },
});
