/** The eight experiment types (docs/intake-model.md), shared by every service and the gateway. */
export const EXPERIMENT_TYPES = [
  "SANGER_PLASMID_VERIFICATION",
  "QPCR_EXPRESSION",
  "CELL_VIABILITY_IC50",
  "ENZYME_INHIBITION_IC50",
  "MICROBIAL_GROWTH_MATRIX",
  "MIC_MBC_ASSAY",
  "ZONE_OF_INHIBITION",
  "CUSTOM",
] as const;

export type ExperimentType = (typeof EXPERIMENT_TYPES)[number];
