/**
 * What a lab submits as results in the route tests. It needs no services, so the unit tests
 * in src/ share it with the integration tests.
 */

export const CSV = "dose,od600\n0,0.91\n8,0.05\n";

/** What the lab submits: one measurement and one raw data file (streamed as an upload). */
export const SUBMISSION = {
  hypothesis_supported: true,
  confidence_level: "high",
  summary: "MIC 4 ug/mL",
  measurements: [{ metric: "MIC", value: 4, unit: "ug/mL", condition: "X" }],
  statistics: { test_used: "t_test", p_value: 0.01 },
  raw_data_uploads: [
    { name: "plate1.csv", format: "CSV", content_base64: Buffer.from(CSV).toString("base64") },
  ],
  documentation: { photos: [] },
  notes: "all controls passed",
};
