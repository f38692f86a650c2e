import { describe, expect, it } from "vitest";

import { bslNumber, normalizeBsl } from "./bsl.js";
import { errorAt, full, minimal, run } from "../../../test/support/intake.js";

describe("BSL spellings are stored as BSL-1 / BSL-2", () => {
  const spellings: Array<[unknown, string]> = [
    ["BSL1", "BSL-1"],
    ["BSL-1", "BSL-1"],
    ["bsl1", "BSL-1"],
    ["bsl-1", "BSL-1"],
    ["BSL 1", "BSL-1"],
    ["BSL_1", "BSL-1"],
    [" bsl2 ", "BSL-2"],
    ["BSL-2", "BSL-2"],
    ["2", "BSL-2"],
    [1, "BSL-1"],
  ];
  for (const [sent, stored] of spellings) {
    it(`${JSON.stringify(sent)} -> ${stored}`, () => {
      const request = minimal("MIC_MBC_ASSAY");
      request.compliance = { bsl: sent };
      expect(run(request).request?.compliance.bsl).toBe(stored);
    });
  }

  it("rejects what is not a biosafety level", () => {
    for (const bad of ["BSL-5", "BSL0", "ABSL-2", "level two", 2.5, true]) {
      const request = minimal("MIC_MBC_ASSAY");
      request.compliance = { bsl: bad };
      expect(errorAt(run(request), "compliance.bsl")).toEqual([
        expect.objectContaining({
          code: "invalid_value",
          message: "compliance.bsl must be a biosafety level such as BSL-1 or BSL-2",
        }),
      ]);
    }
    expect(bslNumber("bsl 4")).toBe(4);
    expect(normalizeBsl("BSL-3")).toBe("BSL-3");
    expect(normalizeBsl("BSL-9")).toBeNull();
  });
});

describe("budget and turnaround spellings", () => {
  it("constraints.budget_max_usd and turnaround_budget.budget_max_usd are one field", () => {
    const spec = minimal("MIC_MBC_ASSAY");
    spec.constraints = { budget_max_usd: 320, budget_flexibility: "flexible_25" };
    const model = minimal("MIC_MBC_ASSAY");
    delete model.constraints;
    model.turnaround_budget = { budget_max_usd: 320, budget_flexibility: "flexible_25" };
    expect(run(spec).request).toEqual(run(model).request);
    expect(run(spec).request?.turnaround_budget).toEqual({
      budget_max_usd: 320,
      budget_flexibility: "flexible_25",
      priority: "standard",
    });
    expect(run(spec).request).not.toHaveProperty("constraints");
  });

  it("equal values sent twice are accepted; different values are invalid_value at the second place", () => {
    const same = minimal("MIC_MBC_ASSAY");
    same.turnaround_budget = { budget_max_usd: 300 };
    expect(run(same).valid).toBe(true);
    const conflict = minimal("MIC_MBC_ASSAY");
    conflict.turnaround_budget = { budget_max_usd: 350 };
    expect(errorAt(run(conflict), "constraints.budget_max_usd")).toEqual([
      expect.objectContaining({
        code: "invalid_value",
        message: expect.stringContaining("conflicts with turnaround_budget.budget_max_usd (350)"),
      }),
    ]);
    const flexibility = minimal("MIC_MBC_ASSAY");
    flexibility.constraints.budget_flexibility = "strict";
    flexibility.turnaround_budget = { budget_flexibility: "flexible_50" };
    expect(errorAt(run(flexibility), "constraints.budget_flexibility")[0]?.code).toBe("invalid_value");
  });

  it("turnaround_days, constraints.turnaround_days, turnaround_budget.max_days -> desired_turnaround_days", () => {
    for (const place of [
      { turnaround_days: 14 },
      { constraints: { budget_max_usd: 300, turnaround_days: 14 } },
      { turnaround_budget: { max_days: 14 } },
      { turnaround_budget: { desired_turnaround_days: 14 } },
    ]) {
      const request = { ...minimal("MIC_MBC_ASSAY"), ...place };
      expect(run(request).request?.turnaround_budget.desired_turnaround_days).toBe(14);
    }
    const conflict = {
      ...minimal("MIC_MBC_ASSAY"),
      turnaround_days: 14,
      turnaround_budget: { desired_turnaround_days: 10 },
    };
    expect(errorAt(run(conflict), "turnaround_days")[0]?.code).toBe("invalid_value");
  });

  it("turnaround_priority, constraints.turnaround_priority -> turnaround_budget.priority", () => {
    expect(
      run({ ...minimal("MIC_MBC_ASSAY"), turnaround_priority: "urgent" }).request?.turnaround_budget.priority,
    ).toBe("urgent");
    const inConstraints = minimal("MIC_MBC_ASSAY");
    inConstraints.constraints.turnaround_priority = "expedited";
    expect(run(inConstraints).request?.turnaround_budget.priority).toBe("expedited");
    const conflict = {
      ...minimal("MIC_MBC_ASSAY"),
      turnaround_priority: "urgent",
      turnaround_budget: { priority: "standard" },
    };
    expect(errorAt(run(conflict), "turnaround_priority")[0]?.code).toBe("invalid_value");
  });

  it("budget bounds and cents", () => {
    for (const [value, message] of [
      [49.99, "must be at least 50"],
      [100_000.01, "must be at most 100000"],
      [120.555, "must have at most two decimal places (USD cents)"],
      ["300", "must be a number"],
    ] as const) {
      const request = minimal("MIC_MBC_ASSAY");
      request.constraints.budget_max_usd = value;
      expect(errorAt(run(request), "constraints.budget_max_usd")[0]?.message).toBe(
        `constraints.budget_max_usd ${message}`,
      );
    }
  });
});

describe("replicate spellings", () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ["replicates.technical/biological", { replicates: { technical: 4, biological: 2 } }],
    ["replicates.*_replicates", { replicates: { technical_replicates: 4, biological_replicates: 2 } }],
    [
      "protocol.replicates.*_replicates",
      { protocol: { replicates: { technical_replicates: 4, biological_replicates: 2 } } },
    ],
    [
      "protocol.replicates.technical/biological",
      { protocol: { replicates: { technical: 4, biological: 2 } } },
    ],
    [
      "mixed places",
      { replicates: { technical: 4 }, protocol: { replicates: { biological_replicates: 2 } } },
    ],
  ];
  for (const [name, place] of cases) {
    it(`${name} -> replicates {technical, biological}`, () => {
      const result = run({ ...minimal("QPCR_EXPRESSION"), ...place });
      expect(result.request?.replicates).toEqual({ technical: 4, biological: 2 });
      expect(result.request?.protocol).toBeUndefined();
    });
  }

  it("conflicting replicate counts are invalid_value", () => {
    const result = run({
      ...minimal("QPCR_EXPRESSION"),
      replicates: { technical: 3 },
      protocol: { replicates: { technical_replicates: 5 } },
    });
    expect(errorAt(result, "protocol.replicates.technical_replicates")[0]?.message).toContain(
      "conflicts with replicates.technical (3)",
    );
  });
});

describe("custom protocol and materials spellings", () => {
  it("protocol.custom_protocol with title/version is stored as custom_protocol with protocol_title/protocol_version", () => {
    const request = run(full("CUSTOM")).request as any;
    expect(request.protocol).toEqual({ type: "custom" });
    expect(request.custom_protocol.protocol_title).toBe("Crystal violet biofilm biomass");
    expect(request.custom_protocol.protocol_version).toBe("1.0");
    expect(request.custom_protocol).not.toHaveProperty("title");
    expect(request.custom_protocol).not.toHaveProperty("version");
    expect(request.materials_provided.map((m: any) => m.name)).toEqual([
      "Crystal violet 0.1% (w/v)",
      "P. aeruginosa PAO1",
    ]);
    expect(request.replicates).toEqual({ technical: 6, biological: 3 });
  });

  it("both locations with the same protocol are accepted; different ones conflict", () => {
    const base = minimal("CUSTOM");
    const both = { ...base, protocol: { type: "custom", custom_protocol: base.custom_protocol } };
    expect(run(both).valid).toBe(true);
    const other = structuredClone(base.custom_protocol);
    other.steps[0].action = "Something else entirely.";
    const conflict = { ...base, protocol: { type: "custom", custom_protocol: other } };
    expect(errorAt(run(conflict), "protocol.custom_protocol")[0]?.code).toBe("invalid_value");
  });

  it("title and protocol_title must agree", () => {
    const request = minimal("CUSTOM");
    request.custom_protocol.title = "A";
    request.custom_protocol.protocol_title = "B";
    expect(errorAt(run(request), "custom_protocol.title")[0]?.code).toBe("invalid_value");
    request.custom_protocol.title = "B";
    expect(run(request).request?.custom_protocol?.protocol_title).toBe("B");
  });

  it("materials_provided and protocol.materials are one list", () => {
    const request = minimal("MIC_MBC_ASSAY");
    request.protocol = { materials: [{ name: "PX-17", cas_number: "67-68-5" }] };
    expect(run(request).request?.materials_provided).toEqual([
      { name: "PX-17", cas_number: "67-68-5", hazardous: false },
    ]);
    request.materials_provided = [{ name: "Other" }];
    expect(errorAt(run(request), "protocol.materials")[0]?.code).toBe("invalid_value");
  });
});

describe("statistical_requirements.test, another marketplace's name for statistical_test", () => {
  const at = "acceptance_criteria.statistical_requirements";
  const withStats = (stats: Record<string, unknown>) => {
    const request = full("QPCR_EXPRESSION");
    request.acceptance_criteria.statistical_requirements = stats;
    return request;
  };
  const aliasWarnings = (result: ReturnType<typeof run>) =>
    result.warnings.filter((w) => w.code === "request.alias_normalised");

  it("is stored as statistical_test, with one warning naming both fields", () => {
    const result = run(withStats({ significance_level: 0.01, test: "mann_whitney", power: 0.9 }));
    expect(result.errors).toEqual([]);
    expect(result.request?.acceptance_criteria.statistical_requirements).toEqual({
      significance_level: 0.01,
      statistical_test: "mann_whitney",
      power: 0.9,
    });
    expect(aliasWarnings(result)).toEqual([
      expect.objectContaining({
        path: `${at}.test`,
        message: expect.stringContaining(`${at}.statistical_test`),
      }),
    ]);
    // The stored form names only statistical_test, and validates again without the warning.
    const again = run(JSON.parse(JSON.stringify(result.request)));
    expect(again.request).toEqual(result.request);
    expect(aliasWarnings(again)).toEqual([]);
  });

  it("sent with statistical_test: equal values are accepted, different ones are invalid_value", () => {
    const same = run(withStats({ statistical_test: "anova", test: "anova" }));
    expect(same.errors).toEqual([]);
    expect(same.request?.acceptance_criteria.statistical_requirements?.statistical_test).toBe("anova");
    expect(aliasWarnings(same)).toHaveLength(1);

    const different = run(withStats({ statistical_test: "anova", test: "t_test" }));
    expect(different.valid).toBe(false);
    expect(errorAt(different, `${at}.test`)).toEqual([
      expect.objectContaining({
        code: "invalid_value",
        message: expect.stringContaining(`${at}.statistical_test`),
      }),
    ]);
    expect(aliasWarnings(different)).toEqual([]);
  });

  it("takes the same values as statistical_test", () => {
    expect(errorAt(run(withStats({ test: "z_test" })), `${at}.test`)).toEqual([
      expect.objectContaining({ code: "invalid_value" }),
    ]);
  });
});

describe("other normalisations", () => {
  it("why_interesting is stored as rationale", () => {
    const request = minimal("MIC_MBC_ASSAY");
    request.hypothesis.why_interesting = "New scaffold.";
    const hypothesis = run(request).request?.hypothesis;
    expect(hypothesis).toEqual({
      statement: request.hypothesis.statement,
      rationale: "New scaffold.",
      prior_work: [],
    });
    request.hypothesis.rationale = "Different.";
    expect(errorAt(run(request), "hypothesis.why_interesting")[0]?.code).toBe("invalid_value");
  });

  it("DOIs are stored bare and checked by type", () => {
    const request = minimal("MIC_MBC_ASSAY");
    request.hypothesis.prior_work = [
      { type: "doi", identifier: "https://doi.org/10.1000/xyz123" },
      { type: "doi", identifier: "doi:10.1000/abc" },
      { type: "pmid", identifier: "12345678" },
    ];
    expect(run(request).request?.hypothesis.prior_work.map((p) => p.identifier)).toEqual([
      "10.1000/xyz123",
      "10.1000/abc",
      "12345678",
    ]);
    request.hypothesis.prior_work = [{ type: "pmid", identifier: "PMC123" }];
    expect(errorAt(run(request), "hypothesis.prior_work[0].identifier")[0]?.message).toContain("a PubMed id");
  });

  it("CAS numbers, primer sequences and repeated list entries get one stored form", () => {
    const request = minimal("SANGER_PLASMID_VERIFICATION");
    request.materials_provided = [{ name: "DMSO", cas_number: "0067–68–5" }];
    request.sanger.primers = [{ name: "M13F", sequence: "gtaaaacg acggccagt" }];
    request.deliverables = { raw_data_formats: ["AB1", "AB1", "CSV"] };
    const stored = run(request).request as any;
    expect(stored.materials_provided[0].cas_number).toBe("67-68-5");
    expect(stored.sanger.primers[0].sequence).toBe("GTAAAACGACGGCCAGT");
    expect(stored.deliverables.raw_data_formats).toEqual(["AB1", "CSV"]);
    request.materials_provided = [{ name: "DMSO", cas_number: "67-68-4" }];
    expect(errorAt(run(request), "materials_provided[0].cas_number")[0]?.message).toContain(
      "wrong check digit",
    );
  });

  it("text is trimmed", () => {
    const request = minimal("MIC_MBC_ASSAY");
    request.title = "   MIC of PX-17   ";
    expect(run(request).request?.title).toBe("MIC of PX-17");
  });
});

describe("a request in docs/api.md spellings and one in intake-model spellings", () => {
  it("are stored identically", () => {
    const model = full("MIC_MBC_ASSAY");
    const spec = full("MIC_MBC_ASSAY");
    const { budget_max_usd, budget_flexibility, desired_turnaround_days, priority, hard_deadline } =
      spec.turnaround_budget;
    spec.constraints = { budget_max_usd, budget_flexibility };
    spec.turnaround_days = desired_turnaround_days;
    spec.turnaround_priority = priority;
    spec.turnaround_budget = { hard_deadline };
    spec.compliance.bsl = "BSL2";
    spec.protocol = {
      materials: spec.materials_provided,
      replicates: {
        technical_replicates: spec.replicates.technical,
        biological_replicates: spec.replicates.biological,
      },
    };
    delete spec.materials_provided;
    delete spec.replicates;
    spec.hypothesis.why_interesting = spec.hypothesis.rationale;
    delete spec.hypothesis.rationale;
    model.compliance.bsl = "BSL-2";
    const a = run(spec);
    const b = run(model);
    expect(a.errors).toEqual([]);
    expect(a.request).toEqual(b.request);
    expect(JSON.stringify(a.request)).toBe(JSON.stringify(b.request));
  });
});
