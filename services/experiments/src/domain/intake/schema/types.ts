/**
 * The eight type-specific sections (docs/intake-model.md, "Type-specific sections").
 *
 * Which fields are required at submission (decision; the model marks only gene_symbol): the
 * fields without which the lab cannot know what to run — the subject and the agent under test.
 *   sanger: template_type · qpcr: targets, housekeeping_genes, sample_type, number_of_samples ·
 *   cell_viability: cell_line, compound_name · enzyme_inhibition: target_enzyme, inhibitor_name ·
 *   microbial_growth: organism, condition_matrix · mic_mbc: organism, compound_name ·
 *   mic_mbc_assay: target_organisms, test_compounds (each with name and concentrations_ug_ml) ·
 *   zone_of_inhibition: organism, compound_name · custom_protocol: see ./protocol.ts.
 * Lists without a stated default are stored as [] when absent (one stored form).
 */
import { z } from "zod";

import { req } from "../required.js";
import { LIMITS, celsius, list, name, nucleotideSequence, quantitySchema, text, unit } from "./common.js";

export const ORGANISM_SOURCES = ["ATCC", "DSMZ", "in_house", "other"] as const;

// SANGER_PLASMID_VERIFICATION ------------------------------------------------------------------

export const SANGER_TEMPLATE_TYPES = ["plasmid", "pcr_product", "genomic"] as const;

export const sangerSchema = z.strictObject({
  template_type: req(z.enum(SANGER_TEMPLATE_TYPES)),
  template_concentration_ng_ul: z.number().nonnegative().optional(),
  primers: list(
    z.strictObject({
      name: req(name(100)),
      sequence: nucleotideSequence().optional(),
      provided_by: z.enum(["requester", "operator"]).optional(),
    }),
    50,
  ).default([]),
  expected_insert_size_bp: z.int().min(1).max(10_000_000).optional(),
  reference_sequence_attached: z.boolean().default(false),
  regions_of_interest: list(
    z
      .strictObject({
        name: name().optional(),
        start_bp: req(z.int().min(1)),
        end_bp: req(z.int().min(1)),
      })
      .superRefine((r, ctx) => {
        if (r.start_bp !== undefined && r.end_bp !== undefined && r.start_bp > r.end_bp) {
          ctx.addIssue({ code: "custom", path: ["end_bp"], message: "must not be before start_bp" });
        }
      }),
  ).default([]),
});

// QPCR_EXPRESSION --------------------------------------------------------------------------------

export const QPCR_CHEMISTRIES = ["SYBR_GREEN", "TAQMAN", "OTHER"] as const;
export const QPCR_SAMPLE_TYPES = ["cDNA", "RNA", "gDNA", "cells"] as const;

export const qpcrSchema = z.strictObject({
  chemistry: z.enum(QPCR_CHEMISTRIES).optional(),
  targets: req(
    list(
      z.strictObject({
        gene_symbol: req(name(50)),
        assay_id: name(100).optional(),
        primer_sequences: z
          .strictObject({
            forward: nucleotideSequence().optional(),
            reverse: nucleotideSequence().optional(),
            probe: nucleotideSequence().optional(),
          })
          .optional(),
      }),
    ).min(1),
  ),
  housekeeping_genes: req(list(name(50), 20).min(1)),
  sample_type: req(z.enum(QPCR_SAMPLE_TYPES)),
  number_of_samples: req(z.int().min(1).max(10_000)),
  conditions: list(z.strictObject({ name: req(name()), description: text().optional() })).default([]),
});

// CELL_VIABILITY_IC50 ----------------------------------------------------------------------------

export const VIABILITY_ASSAY_TYPES = [
  "CELLTITER_GLO",
  "MTT",
  "MTS",
  "RESAZURIN",
  "LIVE_DEAD",
  "OTHER",
] as const;
export const DILUTION_SERIES = ["2-fold", "3-fold", "half-log", "custom"] as const;
export const PLATE_FORMATS = ["96-well", "384-well"] as const;

export const doseRangeSchema = z
  .strictObject({
    min: req(z.number().nonnegative()),
    max: req(z.number().positive()),
    unit: req(unit()),
    points: z.int().min(3).max(LIMITS.listItems).optional(),
    dilution_series: z.enum(DILUTION_SERIES).optional(),
  })
  .superRefine((r, ctx) => {
    if (r.min !== undefined && r.max !== undefined && r.min >= r.max) {
      ctx.addIssue({ code: "custom", path: ["max"], message: "must be greater than min" });
    }
  });

export const cellViabilitySchema = z.strictObject({
  cell_line: req(name()),
  cell_source: name().optional(),
  assay_type: z.enum(VIABILITY_ASSAY_TYPES).optional(),
  compound_name: req(name()),
  compound_stock_concentration: quantitySchema.optional(),
  solvent: name(100).default("DMSO"),
  dose_range: doseRangeSchema.optional(),
  exposure_time_hours: z
    .number()
    .positive()
    .max(24 * 30)
    .optional(),
  seeding_density_cells_per_well: z.int().min(1).optional(),
  plate_format: z.enum(PLATE_FORMATS).default("96-well"),
  positive_control: name().optional(),
  include_z_factor: z.boolean().default(true),
});

// ENZYME_INHIBITION_IC50 -------------------------------------------------------------------------

export const ENZYME_ASSAY_TYPES = [
  "COLORIMETRIC",
  "FLUOROMETRIC",
  "LUMINESCENT",
  "RADIOMETRIC",
  "COUPLED",
  "OTHER",
] as const;

export const enzymeInhibitionSchema = z.strictObject({
  target_enzyme: req(name()),
  enzyme_source: name().optional(),
  enzyme_concentration: quantitySchema.optional(),
  assay_type: z.enum(ENZYME_ASSAY_TYPES).optional(),
  substrate: name().optional(),
  substrate_concentration: quantitySchema.optional(),
  inhibitor_name: req(name()),
  inhibitor_concentrations: list(quantitySchema).default([]),
  incubation_time_minutes: z
    .number()
    .positive()
    .max(60 * 24 * 7)
    .optional(),
  incubation_temperature_c: celsius().optional(),
  buffer: name(500).optional(),
  detection_wavelength_nm: z.number().positive().max(100_000).optional(),
  positive_control_inhibitor: name().optional(),
});

// MICROBIAL_GROWTH_MATRIX ------------------------------------------------------------------------

export const AERATION = ["static", "shaking", "anaerobic"] as const;
export const GROWTH_MEASUREMENTS = ["OD600", "CFU", "both"] as const;

export const microbialGrowthSchema = z.strictObject({
  organism: req(name()),
  strain: name().optional(),
  organism_source: z.enum(ORGANISM_SOURCES).optional(),
  base_medium: name().optional(),
  condition_matrix: req(
    list(
      z.strictObject({
        variable: req(name()),
        values: req(
          list(
            z.strictObject({
              value: req(z.union([name(), z.number()], { error: "must be a number or a non-empty string" })),
              unit: text(LIMITS.unit).optional(),
            }),
          ).min(1),
        ),
      }),
      20,
    ).min(1),
  ),
  incubation_temperature_c: celsius().optional(),
  incubation_hours: z
    .number()
    .positive()
    .max(24 * 30)
    .optional(),
  aeration: z.enum(AERATION).optional(),
  read_schedule: list(
    z.strictObject({
      time_hours: req(
        z
          .number()
          .nonnegative()
          .max(24 * 30),
      ),
      measurement: req(z.enum(GROWTH_MEASUREMENTS)),
    }),
    1000,
  ).default([]),
  endpoint_only: z.boolean().default(false),
});

// MIC_MBC_ASSAY ----------------------------------------------------------------------------------

export const MIC_DILUTION_SERIES = ["2-fold", "custom"] as const;
export const MIC_METHODS = ["broth_microdilution", "broth_macrodilution", "agar_dilution"] as const;

export const concentrationRangeSchema = z
  .strictObject({
    min: req(z.number().positive()),
    max: req(z.number().positive()),
    unit: req(unit()),
    dilution_series: z.enum(MIC_DILUTION_SERIES).optional(),
  })
  .superRefine((r, ctx) => {
    if (r.min !== undefined && r.max !== undefined && r.min >= r.max) {
      ctx.addIssue({ code: "custom", path: ["max"], message: "must be greater than min" });
    }
  });

export const micMbcSchema = z.strictObject({
  organism: req(name()),
  strain: name().optional(),
  organism_source: z.enum(ORGANISM_SOURCES).optional(),
  medium: name().default("Mueller-Hinton broth"),
  compound_name: req(name()),
  concentration_range: concentrationRangeSchema.optional(),
  inoculum_cfu_ml: z.number().positive().optional(),
  incubation_hours: z
    .number()
    .positive()
    .max(24 * 30)
    .default(18),
  incubation_temperature_c: celsius().default(37),
  positive_control_antibiotic: name().optional(),
  determine_mbc: z.boolean().default(false),
  method: z.enum(MIC_METHODS).optional(),
});

/** The cloud-lab form (docs/api.md, Cloud labs): several organisms and compounds at once. */
export const micMbcAssaySchema = z.strictObject({
  target_organisms: req(list(name(), 50).min(1)),
  test_compounds: req(
    list(
      z.strictObject({
        name: req(name()),
        concentrations_ug_ml: req(list(z.number().positive(), 50).min(1)),
      }),
      50,
    ).min(1),
  ),
});

// ZONE_OF_INHIBITION -----------------------------------------------------------------------------

export const zoneOfInhibitionSchema = z.strictObject({
  organism: req(name()),
  strain: name().optional(),
  medium: name().default("Mueller-Hinton agar"),
  compound_name: req(name()),
  disk_loading: list(z.strictObject({ amount: req(z.number().positive()), unit: req(unit()) })).default([]),
  disk_diameter_mm: z.number().positive().max(100).default(6),
  positive_control: name().optional(),
  incubation_hours: z
    .number()
    .positive()
    .max(24 * 30)
    .default(18),
  incubation_temperature_c: celsius().default(37),
});
