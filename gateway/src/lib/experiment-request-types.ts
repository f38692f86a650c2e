/**
 * The type sections of the experiment request's documentation (one per experiment type) and
 * the custom protocol, which CUSTOM requests carry as their section or under protocol.
 */
import { d, list, obj, quantity, range, text } from "./experiment-request-builders.js";

const customStep = obj(
  {
    step_number: d.int(),
    action: d.string(),
    duration: obj({ value: d.number(), unit: d.enum(["seconds", "minutes", "hours", "days"]) }, "Duration"),
    temperature: obj(
      { value: d.number(), unit: d.enum(["C", "F", "K"]), tolerance: d.number() },
      "Temperature",
    ),
    critical_parameters: list(
      d.string(),
      "What must be controlled in this step. At least one step of a protocol must list some; a step without is the warning custom.step_critical_parameters",
    ),
    expected_outcome: d.string(),
  },
  "A numbered step",
  ["step_number", "action", "expected_outcome"],
);

export const customProtocol = obj(
  {
    protocol_title: text("At most 200 characters", 200),
    title: text("Second spelling of protocol_title", 200),
    protocol_version: d.string(),
    version: d.string().describe("Second spelling of protocol_version"),
    protocol_attached: d.boolean().default(false),
    brief_description: text("At most 5000 characters", 5000),
    steps: list(customStep, "Numbered steps with critical parameters and expected outcomes"),
    equipment_required: list(
      obj({ name: d.string(), specifications: d.string(), required: d.boolean().default(true) }, "Equipment"),
      "Equipment list",
    ),
    safety_notes: list(d.string(), "Safety notes"),
  },
  "A custom protocol: numbered steps with expected outcomes, critical parameters (in at least one step), materials and equipment are all required",
  ["steps", "equipment_required"],
);

const organism = {
  organism: d.string(),
  strain: d.string(),
};

export const TYPE_SECTIONS = {
  sanger: obj(
    {
      template_type: d.enum(["plasmid", "pcr_product", "genomic"]),
      template_concentration_ng_ul: d.number().min(0),
      primers: list(
        obj(
          {
            name: d.string(),
            sequence: d
              .string()
              .regex(/^[ATCGRYSWKMBDHVN]+$/i)
              .describe("IUPAC bases"),
            provided_by: d.enum(["requester", "operator"]),
          },
          "A primer",
        ),
        "Primers",
      ),
      expected_insert_size_bp: d.int(),
      reference_sequence_attached: d.boolean().default(false),
      regions_of_interest: list(
        obj({ name: d.string(), start_bp: d.int(), end_bp: d.int() }, "A region"),
        "Regions of interest",
      ),
    },
    "SANGER_PLASMID_VERIFICATION",
    ["template_type"],
  ),
  qpcr: obj(
    {
      chemistry: d.enum(["SYBR_GREEN", "TAQMAN", "OTHER"]),
      targets: list(
        obj(
          {
            gene_symbol: d.string(),
            assay_id: d.string(),
            primer_sequences: obj({ forward: d.string(), reverse: d.string(), probe: d.string() }, "Primers"),
          },
          "A target gene",
          ["gene_symbol"],
        ),
        "Target genes",
      ),
      housekeeping_genes: list(d.string(), "At least one reference gene", { min: 1 }),
      sample_type: d.enum(["cDNA", "RNA", "gDNA", "cells"]),
      number_of_samples: d.int().min(1),
      conditions: list(obj({ name: d.string(), description: d.string() }, "A condition"), "Conditions"),
    },
    "QPCR_EXPRESSION (checked against MIQE)",
    ["targets", "housekeeping_genes", "sample_type", "number_of_samples"],
  ),
  cell_viability: obj(
    {
      cell_line: d.string(),
      cell_source: d.string(),
      assay_type: d.enum(["CELLTITER_GLO", "MTT", "MTS", "RESAZURIN", "LIVE_DEAD", "OTHER"]),
      compound_name: d.string(),
      compound_stock_concentration: quantity("Stock concentration"),
      solvent: d.string().default("DMSO"),
      dose_range: range("Dose range", {
        points: d.int().min(3),
        dilution_series: d.enum(["2-fold", "3-fold", "half-log", "custom"]),
      }),
      exposure_time_hours: d.number(),
      seeding_density_cells_per_well: d.number(),
      plate_format: d.enum(["96-well", "384-well"]).default("96-well"),
      positive_control: d.string(),
      include_z_factor: d.boolean().default(true),
    },
    "CELL_VIABILITY_IC50 (dose-response design rules)",
    ["cell_line", "compound_name"],
  ),
  enzyme_inhibition: obj(
    {
      target_enzyme: d.string(),
      enzyme_source: d.string(),
      enzyme_concentration: quantity("Enzyme concentration"),
      assay_type: d.enum(["COLORIMETRIC", "FLUOROMETRIC", "LUMINESCENT", "RADIOMETRIC", "COUPLED", "OTHER"]),
      substrate: d.string(),
      substrate_concentration: quantity("Substrate concentration"),
      inhibitor_name: d.string(),
      inhibitor_concentrations: list(quantity("A concentration"), "Inhibitor concentrations"),
      incubation_time_minutes: d.number(),
      incubation_temperature_c: d.number(),
      buffer: d.string(),
      detection_wavelength_nm: d.number(),
      positive_control_inhibitor: d.string(),
    },
    "ENZYME_INHIBITION_IC50",
    ["target_enzyme", "inhibitor_name"],
  ),
  microbial_growth: obj(
    {
      ...organism,
      organism_source: d.enum(["ATCC", "DSMZ", "in_house", "other"]),
      base_medium: d.string(),
      condition_matrix: list(
        obj(
          {
            variable: d.string(),
            values: list(
              obj({ value: d.union([d.string(), d.number()]), unit: d.string() }, "A value"),
              "Values",
            ),
          },
          "A varied condition",
        ),
        "Condition matrix",
      ),
      incubation_temperature_c: d.number(),
      incubation_hours: d.number(),
      aeration: d.enum(["static", "shaking", "anaerobic"]),
      read_schedule: list(
        obj({ time_hours: d.number(), measurement: d.enum(["OD600", "CFU", "both"]) }, "A read"),
        "Read schedule",
      ),
      endpoint_only: d.boolean().default(false),
    },
    "MICROBIAL_GROWTH_MATRIX",
    ["organism", "condition_matrix"],
  ),
  mic_mbc: obj(
    {
      ...organism,
      organism_source: d.enum(["ATCC", "DSMZ", "in_house", "other"]),
      medium: d.string().default("Mueller-Hinton broth"),
      compound_name: d.string(),
      concentration_range: range("Concentration range", { dilution_series: d.enum(["2-fold", "custom"]) }),
      inoculum_cfu_ml: d.number(),
      incubation_hours: d.number().default(18),
      incubation_temperature_c: d.number().default(37),
      positive_control_antibiotic: d.string(),
      determine_mbc: d.boolean().default(false),
      method: d.enum(["broth_microdilution", "broth_macrodilution", "agar_dilution"]),
    },
    "MIC_MBC_ASSAY (broth microdilution checked per CLSI); mic_mbc_assay is the other accepted form",
    ["organism", "compound_name"],
  ),
  mic_mbc_assay: obj(
    {
      target_organisms: list(d.string(), "Organisms", { min: 1 }),
      test_compounds: list(
        obj(
          {
            name: d.string(),
            concentrations_ug_ml: list(d.number().positive(), "Concentrations in ug/mL", { min: 1 }),
          },
          "A compound",
          ["name", "concentrations_ug_ml"],
        ),
        "Compounds",
        { min: 1 },
      ),
    },
    "MIC_MBC_ASSAY, cloud-lab form: several organisms and compounds at once",
    ["target_organisms", "test_compounds"],
  ),
  zone_of_inhibition: obj(
    {
      ...organism,
      medium: d.string().default("Mueller-Hinton agar"),
      compound_name: d.string(),
      disk_loading: list(obj({ amount: d.number(), unit: d.string() }, "A loading"), "Disk loadings"),
      disk_diameter_mm: d.number().default(6),
      positive_control: d.string(),
      incubation_hours: d.number().default(18),
      incubation_temperature_c: d.number().default(37),
    },
    "ZONE_OF_INHIBITION",
    ["organism", "compound_name"],
  ),
  custom_protocol: customProtocol.describe(
    "CUSTOM (or protocol.custom_protocol): numbered steps, critical parameters, expected outcomes, materials and equipment are required",
  ),
};
