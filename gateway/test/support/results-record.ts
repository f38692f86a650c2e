/**
 * A results record and an acceptance evaluation in their REST JSON, every kind of field filled
 * in or null (docs/api.md, Results; the staff dispute view): what a service sends typed since
 * decisions.md D342, for the route tests that compare the typed and the JSON text forms.
 */
import type { JsonObject } from "@bufbuild/protobuf";

export const resultsRecordJson: JsonObject = {
  experiment_id: "exp_00000000000000000000000001",
  status: "pending_approval",
  hypothesis_supported: true,
  confidence_level: "medium",
  summary: "MIC 4 ug/mL",
  structured_data: {
    measurements: [
      { metric: "MIC", value: 4, unit: "ug/mL", condition: "X" },
      { metric: "MIC", value: 4.5, unit: null, condition: null },
    ],
    statistics: { test_used: "t_test", p_value: null },
  },
  raw_data_files: [
    {
      name: "plate1.csv",
      format: "csv",
      url: "https://api.example/files/fil_1?expires=1&signature=s",
      checksum_sha256: "a".repeat(64),
      size_bytes: 25,
    },
  ],
  documentation: {
    photos: [
      {
        step: 3,
        url: "https://api.example/files/fil_2",
        timestamp: "2026-03-02T10:00:00.000Z",
        caption: "Plate",
      },
      {
        step: "harvest",
        url: "https://api.example/files/fil_3",
        timestamp: "2026-03-02T10:00:00.000Z",
        caption: null,
      },
      {
        step: null,
        url: "https://api.example/files/fil_4",
        timestamp: "2026-03-02T10:00:00.000Z",
        caption: null,
      },
    ],
    lab_notebook_url: null,
  },
  operator_notes: null,
  submitted_at: "2026-03-02T10:00:00.000Z",
};

export const evaluationJson: JsonObject = {
  verdict: "criteria_met",
  reasons: [],
  success_conditions: [
    {
      metric: "MIC",
      operator: "lte",
      threshold: 8,
      unit: "ug/mL",
      description: "MIC at most 8 ug/mL",
      observed: { count: 2, values: [4, 4.5], compared: 4.25, by_condition: { X: 4 }, units: ["ug/mL"] },
      unit_check: "match",
      outcome: "met",
      notes: [],
    },
    {
      metric: "OD600",
      operator: "between",
      threshold: { min: 0.1, max: 0.2 },
      unit: null,
      description: "",
      observed: { count: 0, values: [], compared: null, by_condition: {}, units: [] },
      unit_check: "not_checked",
      outcome: "indeterminate",
      notes: ["no measurement of OD600"],
    },
  ],
  failure_conditions: [
    {
      condition: "contamination",
      interpretation: "repeat",
      status: "not_detected",
      matched_keywords: [],
      keywords: ["contamination"],
    },
  ],
  significance: {
    significance_level: 0.05,
    reported_p_value: null,
    reported_test: "t_test",
    reported: "missing",
    recomputed: "significant",
    notes: [],
  },
  recomputation: {
    requested_test: "t_test",
    test: "t_test",
    status: "computed",
    result: {
      test: "t_test",
      method: "Welch Two Sample t-test",
      statistic_name: "t",
      statistic: -12.5,
      df: [3.2],
      p_value: 0.0008,
      notes: [],
    },
    basis: { metric: "MIC", groups: ["X", "Y"], categories: [] },
    agreement: null,
    reason: null,
  },
  flags: [],
};

/** The fields of a dispute that staff have not resolved yet, in its REST JSON. */
export const UNRESOLVED_DISPUTE = {
  status: "open",
  outcome: null,
  requester_amount_usd: null,
  operator_amount_usd: null,
  resolution_note: null,
  resolved_at: null,
};
