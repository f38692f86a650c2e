/** Market price bands (low, high USD) from docs/intake-model.md, as the unit tests expect them (CUSTOM: variable, no band). */
export const INTAKE_MARKET_BANDS_USD: Readonly<Record<string, readonly [number, number]>> = {
  SANGER_PLASMID_VERIFICATION: [50, 150],
  QPCR_EXPRESSION: [200, 500],
  CELL_VIABILITY_IC50: [300, 800],
  ENZYME_INHIBITION_IC50: [200, 600],
  MICROBIAL_GROWTH_MATRIX: [150, 400],
  MIC_MBC_ASSAY: [200, 400],
  ZONE_OF_INHIBITION: [100, 250],
};
