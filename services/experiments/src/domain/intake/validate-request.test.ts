import { describe, expect, it } from "vitest";

import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { type RequestError } from "../contracts.js";
import { FIXTURE_NOW, fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import { errorAt, full, minimal, run, warningCodes } from "../../../test/support/intake.js";
import { parseExperimentType, validateExperimentRequest } from "./validate-request.js";

describe("valid requests of every type", () => {
  for (const type of EXPERIMENT_TYPES) {
    it(`accepts the minimal ${type} request and stores it in normalised form`, () => {
      const result = run(validRequests[type]);
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
      expect(result.request?.experiment_type).toBe(type);
      expect(result.request?.compliance.bsl).toBe("BSL-1");
      expect(result.request?.replicates).toEqual({ technical: 3, biological: 1 });
      expect(result.request?.privacy).toBe("open");
      expect(result.safety_flags).toEqual([]);
    });

    it(`accepts the full ${type} request without any warning`, () => {
      const result = run(fullRequests[type]);
      expect(result.errors).toEqual([]);
      expect(result.warnings).toEqual([]);
      expect(result.safety_flags).toEqual([]);
      expect(result.request?.experiment_type).toBe(type);
      expect(result.request?.metadata.submitter_type).toBe("ai_agent");
      expect(result.request?.turnaround_budget).toMatchObject({
        desired_turnaround_days: 21,
        hard_deadline: "2027-06-30",
      });
    });

    it(`stores a ${type} request that validates again to itself`, () => {
      for (const input of [validRequests[type], fullRequests[type]]) {
        const first = run(input).request;
        const second = run(JSON.parse(JSON.stringify(first))).request;
        expect(second).toEqual(first);
        expect(JSON.stringify(second)).toBe(JSON.stringify(first));
      }
    });
  }

  it("accepts the cloud-lab MIC form, a standard template and a protocol design request", () => {
    for (const input of Object.values(specialRequests)) {
      const result = run(input);
      expect(result.errors).toEqual([]);
      expect(result.request).toBeDefined();
    }
    expect(run(specialRequests.micCloudLab).request).toMatchObject({
      experiment_type: "MIC_MBC_ASSAY",
      mic_mbc_assay: {
        target_organisms: ["Escherichia coli ATCC 25922", "Staphylococcus aureus ATCC 29213"],
      },
    });
    expect(run(specialRequests.protocolDesign).request?.protocol).toEqual({
      type: "protocol_design_requested",
      protocol_design_brief: expect.stringContaining("dispersal"),
    });
  });

  it("applies the type section defaults of the model", () => {
    const request = run(validRequests.MIC_MBC_ASSAY).request as any;
    expect(request.mic_mbc).toEqual({
      organism: "Staphylococcus aureus",
      compound_name: "PX-17",
      medium: "Mueller-Hinton broth",
      incubation_hours: 18,
      incubation_temperature_c: 37,
      determine_mbc: false,
    });
    const zone = run(validRequests.ZONE_OF_INHIBITION).request as any;
    expect(zone.zone_of_inhibition).toMatchObject({
      medium: "Mueller-Hinton agar",
      disk_diameter_mm: 6,
      incubation_hours: 18,
    });
    const viability = run(validRequests.CELL_VIABILITY_IC50).request as any;
    expect(viability.cell_viability).toMatchObject({
      solvent: "DMSO",
      plate_format: "96-well",
      include_z_factor: true,
    });
    const custom = run(validRequests.CUSTOM).request as any;
    expect(custom.custom_protocol).toMatchObject({ protocol_attached: false, safety_notes: [] });
    expect(custom.custom_protocol.equipment_required[0].required).toBe(true);
    const sanger = run(validRequests.SANGER_PLASMID_VERIFICATION).request as any;
    expect(sanger.sanger).toEqual({
      template_type: "plasmid",
      primers: [],
      reference_sequence_attached: false,
      regions_of_interest: [],
    });
    const growth = run(validRequests.MICROBIAL_GROWTH_MATRIX).request as any;
    expect(growth.microbial_growth).toMatchObject({ endpoint_only: false, read_schedule: [] });
  });

  it("applies the common defaults of the model", () => {
    const request = run(validRequests.SANGER_PLASMID_VERIFICATION).request;
    expect(request).toMatchObject({
      metadata: { submitter_type: "human", tags: [], language: "en" },
      compliance: {
        bsl: "BSL-1",
        human_derived_material: false,
        animal_derived_material: false,
        hazardous_chemicals: false,
        sds_attached: false,
        export_control_or_sanctions_risk: false,
      },
      turnaround_budget: { budget_max_usd: 100, budget_flexibility: "strict", priority: "standard" },
      deliverables: {
        minimum_package_level: "L1_BASIC_QC",
        raw_data_formats: ["CSV"],
        required_processed_outputs: [],
        photo_documentation: "key_steps",
        lab_notebook_scan: true,
      },
      privacy: "open",
      materials_provided: [],
      replicates: { technical: 3, biological: 1 },
      acceptance_criteria: { success_conditions: [], failure_conditions: [] },
      communication_preferences: {},
    });
    const withStats = full("MIC_MBC_ASSAY");
    delete withStats.acceptance_criteria.statistical_requirements.significance_level;
    expect(run(withStats).request?.acceptance_criteria.statistical_requirements?.significance_level).toBe(
      0.05,
    );
    const material = minimal("CUSTOM");
    expect((run(material).request as any).materials_provided[0].hazardous).toBe(false);
  });
});

describe("error codes and paths", () => {
  it("missing_required for each required field, at its path", () => {
    const result = run({ experiment_type: "MIC_MBC_ASSAY" });
    expect(result.valid).toBe(false);
    const missing = result.errors.filter((e) => e.code === "missing_required").map((e) => e.path);
    expect(missing).toEqual(
      expect.arrayContaining(["title", "hypothesis", "turnaround_budget.budget_max_usd", "mic_mbc"]),
    );
    expect(run({}).errors.map((e) => e.path)).toContain("experiment_type");
    const noStatement = minimal("QPCR_EXPRESSION");
    noStatement.hypothesis = { null_hypothesis: "nothing changes at all" };
    expect(errorAt(run(noStatement), "hypothesis.statement")).toEqual([
      { path: "hypothesis.statement", code: "missing_required", message: "hypothesis.statement is required" },
    ]);
    const noTarget = minimal("QPCR_EXPRESSION");
    noTarget.qpcr.targets = [{ assay_id: "Hs00174128_m1" }];
    expect(errorAt(run(noTarget), "qpcr.targets[0].gene_symbol")[0]?.code).toBe("missing_required");
    const noMaterialName = minimal("MIC_MBC_ASSAY");
    noMaterialName.materials_provided = [{ specification: "powder" }];
    expect(errorAt(run(noMaterialName), "materials_provided[0].name")[0]?.code).toBe("missing_required");
  });

  it("invalid_value with readable messages for malformed values", () => {
    const request = minimal("MIC_MBC_ASSAY");
    request.title = 42;
    request.privacy = "secret";
    request.replicates = { technical: 2.5 };
    request.metadata = { tags: Array.from({ length: 11 }, (_, i) => `t${i}`), intake_id: "nope" };
    request.turnaround_budget = { hard_deadline: "2027-02-30", desired_turnaround_days: 181 };
    const result = run(request);
    const byPath = Object.fromEntries(result.errors.map((e) => [e.path, e]));
    expect(byPath.title).toEqual({
      path: "title",
      code: "invalid_value",
      message: "title must be text (a JSON string)",
    });
    expect(byPath.privacy?.message).toBe(
      'privacy must be one of: "open", "delayed_6mo", "delayed_12mo", "private"',
    );
    expect(byPath["replicates.technical"]?.message).toBe("replicates.technical must be a whole number");
    expect(byPath["metadata.tags"]?.message).toBe("metadata.tags must contain at most 10 items");
    expect(byPath["metadata.intake_id"]?.message).toBe("metadata.intake_id must be a UUID");
    expect(byPath["turnaround_budget.hard_deadline"]?.message).toBe(
      "turnaround_budget.hard_deadline must be a date in YYYY-MM-DD form",
    );
    expect(byPath["turnaround_budget.desired_turnaround_days"]?.message).toBe(
      "turnaround_budget.desired_turnaround_days must be at most 180",
    );
    for (const error of result.errors) expect(error.message).not.toMatch(/Invalid input|received|expected/);
  });

  it("labels nested fields with their last key and index", () => {
    const request = minimal("SANGER_PLASMID_VERIFICATION");
    request.sanger.primers = [{ name: "M13F", sequence: "ACGTX" }];
    expect(errorAt(run(request), "sanger.primers[0].sequence")[0]?.message).toBe(
      "sanger.primers[0].sequence must use IUPAC nucleotide codes only (A C G T R Y S W K M B D H V N)",
    );
  });

  it("invalid_experiment_type for an unknown type, case-insensitive for known ones", () => {
    const unknown = { ...minimal("MIC_MBC_ASSAY"), experiment_type: "PCR_MAGIC" };
    expect(errorAt(run(unknown), "experiment_type")).toEqual([
      expect.objectContaining({
        code: "invalid_experiment_type",
        message: expect.stringContaining("PCR_MAGIC"),
      }),
    ]);
    expect(errorAt(run({ ...unknown, experiment_type: 7 }), "experiment_type")[0]?.code).toBe(
      "invalid_experiment_type",
    );
    expect(
      run({ ...minimal("MIC_MBC_ASSAY"), experiment_type: "mic-mbc-assay" }).request?.experiment_type,
    ).toBe("MIC_MBC_ASSAY");
    expect(parseExperimentType(" qpcr_expression ")).toBe("QPCR_EXPRESSION");
    expect(parseExperimentType("QPCR")).toBeNull();
  });

  it("safety_violation at the path of the offending value", () => {
    const request = minimal("MIC_MBC_ASSAY");
    request.compliance = { bsl: "BSL-3" };
    expect(errorAt(run(request), "compliance.bsl")).toEqual([
      expect.objectContaining({ code: "safety_violation" }),
    ]);
  });

  it("a type whose section is missing is missing_required; sections of other types are invalid_value", () => {
    for (const type of EXPERIMENT_TYPES) {
      const request = minimal(type);
      for (const key of [
        "sanger",
        "qpcr",
        "cell_viability",
        "enzyme_inhibition",
        "microbial_growth",
        "mic_mbc",
        "zone_of_inhibition",
        "custom_protocol",
      ]) {
        delete request[key];
      }
      delete request.materials_provided;
      const missing = run(request).errors.filter((e) => e.code === "missing_required");
      expect(missing).toHaveLength(1);
      expect(missing[0]?.message).toContain(type);
    }
    const custom = run({ ...minimal("CUSTOM"), custom_protocol: undefined });
    expect(errorAt(custom, "custom_protocol")[0]?.message).toContain("protocol.custom_protocol");
    const mixed = { ...minimal("MIC_MBC_ASSAY"), qpcr: minimal("QPCR_EXPRESSION").qpcr };
    expect(errorAt(run(mixed), "qpcr")).toEqual([
      expect.objectContaining({
        code: "invalid_value",
        message: expect.stringContaining("does not apply to experiment_type MIC_MBC_ASSAY"),
      }),
    ]);
    const stray = { ...minimal("MIC_MBC_ASSAY"), custom_protocol: minimal("CUSTOM").custom_protocol };
    expect(errorAt(run(stray), "custom_protocol")[0]?.code).toBe("invalid_value");
  });

  it("processed outputs must belong to the type", () => {
    const request = minimal("SANGER_PLASMID_VERIFICATION");
    request.deliverables = {
      required_processed_outputs: ["ALIGNMENT_VS_REFERENCE", "CT_TABLE", "QC_SUMMARY"],
    };
    expect(run(request).errors).toEqual([
      expect.objectContaining({ path: "deliverables.required_processed_outputs[1]", code: "invalid_value" }),
    ]);
  });

  it("a hard deadline in the past is invalid at submission and a warning in a draft", () => {
    const request = minimal("MIC_MBC_ASSAY");
    request.turnaround_budget = { hard_deadline: "2026-11-20" };
    expect(errorAt(run(request), "turnaround_budget.hard_deadline")[0]?.code).toBe("invalid_value");
    const draft = run(request, "draft");
    expect(draft.valid).toBe(true);
    expect(warningCodes(draft)).toContain("turnaround.deadline_in_past");
    request.turnaround_budget = { hard_deadline: "2026-11-21" };
    expect(run(request).valid).toBe(true);
  });

  it("a body that is not an object is one invalid_value at the root", () => {
    for (const body of [null, 42, "text", [1, 2], true]) {
      const result = run(body);
      expect(result.valid).toBe(false);
      expect(result.errors).toEqual([
        { path: "", code: "invalid_value", message: "The request body must be a JSON object" },
      ]);
    }
  });
});

describe("unknown fields", () => {
  it("are rejected with invalid_value at the top level and in nested sections", () => {
    const request = minimal("MIC_MBC_ASSAY");
    request.turnarround_days = 10;
    request.mic_mbc.colour = "blue";
    request.materials_provided = [{ name: "PX-17", purity: 0.99 }];
    request.protocol = { replicates: { technicals: 3 } };
    const result = run(request);
    expect(result.errors.map((e) => [e.path, e.code])).toEqual(
      expect.arrayContaining([
        ["turnarround_days", "invalid_value"],
        ["mic_mbc.colour", "invalid_value"],
        ["materials_provided[0].purity", "invalid_value"],
        ["protocol.replicates.technicals", "invalid_value"],
      ]),
    );
    expect(errorAt(result, "turnarround_days")[0]?.message).toBe(
      'Unknown field "turnarround_days": it is not part of the experiment request',
    );
  });

  it("are rejected in drafts too, but template_parameters stay free-form", () => {
    expect(run({ experiment_type: "CUSTOM", extra: true }, "draft").valid).toBe(false);
    expect(run(specialRequests.standardTemplate).valid).toBe(true);
  });

  it("treats null properties as absent", () => {
    const request = {
      ...minimal("MIC_MBC_ASSAY"),
      compliance: null,
      privacy: null,
      metadata: { agent_identifier: null },
    };
    const result = run(request);
    expect(result.valid).toBe(true);
    expect(result.request?.privacy).toBe("open");
  });
});

describe("draft mode", () => {
  it("accepts an incomplete request and lists what is missing as warnings", () => {
    const result = run({ experiment_type: "QPCR_EXPRESSION", title: "IL6 expression study" }, "draft");
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.request).toBeUndefined();
    expect(result.draft).toMatchObject({
      experiment_type: "QPCR_EXPRESSION",
      title: "IL6 expression study",
      privacy: "open",
    });
    const missing = result.warnings.filter((w) => w.code === "missing_required").map((w) => w.path);
    expect(missing).toEqual(["hypothesis", "turnaround_budget.budget_max_usd", "qpcr"]);
    expect(result.warnings[0]?.suggestion).toBeTruthy();
  });

  it("keeps partial sections in the normalised draft", () => {
    const result = run(
      { experiment_type: "MIC_MBC_ASSAY", mic_mbc: { organism: "E. coli" }, compliance: { bsl: "bsl2" } },
      "draft",
    );
    expect(result.valid).toBe(true);
    expect(result.draft?.mic_mbc).toMatchObject({ organism: "E. coli", medium: "Mueller-Hinton broth" });
    expect(result.draft?.compliance.bsl).toBe("BSL-2");
    expect(result.warnings.map((w) => w.path)).toContain("mic_mbc.compound_name");
  });

  it("still rejects malformed values", () => {
    const result = run({ title: 5, hypothesis: { statement: "short" } }, "draft");
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => e.path)).toEqual(["title", "hypothesis.statement"]);
    expect(result.errors.every((e) => e.code === "invalid_value")).toBe(true);
  });

  it("returns the complete request when a draft happens to be complete", () => {
    const result = run(validRequests.ZONE_OF_INHIBITION, "draft");
    expect(result.request).toEqual(run(validRequests.ZONE_OF_INHIBITION).request);
  });

  it("an empty object is a valid empty draft", () => {
    const result = run({}, "draft");
    expect(result.valid).toBe(true);
    expect(warningCodes(result).filter((c) => c === "missing_required")).toHaveLength(4);
  });
});

describe("custom protocol completeness", () => {
  const base = () => minimal("CUSTOM");

  it("accepts a complete protocol in either location", () => {
    expect(run(base()).valid).toBe(true);
    const inner = base();
    inner.protocol = {
      type: "custom",
      custom_protocol: inner.custom_protocol,
      materials: inner.materials_provided,
    };
    delete inner.custom_protocol;
    delete inner.materials_provided;
    expect(run(inner).errors).toEqual([]);
  });

  it("requires steps", () => {
    const request = base();
    request.custom_protocol.steps = [];
    expect(errorAt(run(request), "custom_protocol.steps")).toEqual([
      expect.objectContaining({
        code: "missing_required",
        message: expect.stringContaining("numbered steps"),
      }),
    ]);
  });

  it("requires the steps numbered 1..n in order", () => {
    const request = base();
    request.custom_protocol.steps[1].step_number = 3;
    expect(errorAt(run(request), "custom_protocol.steps[1].step_number")).toEqual([
      expect.objectContaining({
        code: "invalid_value",
        message: "Steps must be numbered 1..n in order: step 2 is numbered 3",
      }),
    ]);
    delete request.custom_protocol.steps[1].step_number;
    expect(errorAt(run(request), "custom_protocol.steps[1].step_number")[0]?.message).toContain(
      "Step 2 has no step_number",
    );
  });

  it("requires an expected outcome in every step, and says which", () => {
    const request = base();
    delete request.custom_protocol.steps[0].expected_outcome;
    expect(errorAt(run(request), "custom_protocol.steps[0].expected_outcome")[0]?.message).toBe(
      "Step 1 has no expected_outcome: say what the step should produce",
    );
  });

  it("requires critical parameters of the protocol: a step without them is a warning, not an error", () => {
    const request = base();
    delete request.custom_protocol.steps[0].critical_parameters;
    const result = run(request);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.warnings.filter((w) => w.code === "custom.step_critical_parameters")).toEqual([
      expect.objectContaining({ path: "custom_protocol.steps[0].critical_parameters" }),
    ]);
    expect(result.request?.custom_protocol?.steps[0]).not.toHaveProperty("critical_parameters");
  });

  it("refuses a custom protocol in which no step names a critical parameter (a warning in a draft)", () => {
    const request = base();
    delete request.custom_protocol.steps[0].critical_parameters;
    request.custom_protocol.steps[1].critical_parameters = [];
    const submitted = run(request);
    expect(errorAt(submitted, "custom_protocol.steps")).toEqual([
      expect.objectContaining({
        code: "missing_required",
        message: expect.stringContaining("critical parameters"),
      }),
    ]);
    expect(submitted.warnings.filter((w) => w.code === "custom.step_critical_parameters")).toHaveLength(2);
    const draft = run(request, "draft");
    expect(draft.valid).toBe(true);
    expect(draft.warnings).toContainEqual(
      expect.objectContaining({ path: "custom_protocol.steps", code: "missing_required" }),
    );
  });

  it("requires a materials list and an equipment list", () => {
    const request = base();
    delete request.materials_provided;
    request.custom_protocol.equipment_required = [];
    const result = run(request);
    expect(errorAt(result, "materials_provided")[0]?.message).toContain("materials list");
    expect(errorAt(result, "custom_protocol.equipment_required")[0]?.message).toContain("equipment list");
    const inner = base();
    inner.protocol = {
      type: "custom",
      custom_protocol: { ...inner.custom_protocol, equipment_required: undefined },
    };
    delete inner.custom_protocol;
    expect(errorAt(run(inner), "protocol.custom_protocol.equipment_required")[0]?.code).toBe(
      "missing_required",
    );
  });

  it("a CUSTOM protocol design request needs no custom protocol", () => {
    expect(run(specialRequests.protocolDesign).errors).toEqual([]);
  });
});

describe("protocol choice", () => {
  const withProtocol = (protocol: unknown) => ({ ...minimal("MIC_MBC_ASSAY"), protocol });

  it("standard_template requires template_id", () => {
    expect(errorAt(run(withProtocol({ type: "standard_template" })), "protocol.template_id")[0]?.code).toBe(
      "missing_required",
    );
  });

  it("protocol_design_requested requires protocol_design_brief", () => {
    expect(
      errorAt(run(withProtocol({ type: "protocol_design_requested" })), "protocol.protocol_design_brief")[0]
        ?.code,
    ).toBe("missing_required");
  });

  it("custom requires a custom protocol", () => {
    expect(errorAt(run(withProtocol({ type: "custom" })), "protocol.custom_protocol")[0]?.code).toBe(
      "missing_required",
    );
  });

  it("a choice without a type is missing protocol.type; fields of another type are invalid", () => {
    expect(errorAt(run(withProtocol({ template_id: "x-v1" })), "protocol.type")[0]?.code).toBe(
      "missing_required",
    );
    expect(
      errorAt(run(withProtocol({ type: "custom", template_id: "x-v1" })), "protocol.template_id")[0]?.code,
    ).toBe("invalid_value");
    expect(
      errorAt(
        run(withProtocol({ type: "standard_template", template_id: "x-v1", protocol_design_brief: "b" })),
        "protocol.protocol_design_brief",
      )[0]?.code,
    ).toBe("invalid_value");
    expect(run(withProtocol({ replicates: { technical: 4 } })).request?.protocol).toBeUndefined();
  });

  it("checks template parameters through checkTemplate, mapping paths and following the mode", () => {
    const calls: Array<[string, Record<string, unknown>]> = [];
    const problems: RequestError[] = [
      {
        path: "max_concentration_ug_ml",
        code: "invalid_value",
        message: "max_concentration_ug_ml must be at most 32",
      },
      {
        path: "protocol.template_parameters.organism",
        code: "invalid_value",
        message: "organism is not supported",
      },
      { path: "inoculum", code: "missing_required", message: "inoculum is required" },
    ];
    const checkTemplate = (id: string, parameters: Record<string, unknown>) => {
      calls.push([id, parameters]);
      return problems;
    };
    const submit = validateExperimentRequest(specialRequests.standardTemplate, {
      mode: "submit",
      now: FIXTURE_NOW,
      checkTemplate,
    });
    expect(calls[0]).toEqual([
      "mic-broth-microdilution-v1",
      { organism: "Staphylococcus aureus", max_concentration_ug_ml: 64 },
    ]);
    expect(submit.errors.map((e) => [e.path, e.code])).toEqual([
      ["protocol.template_parameters.max_concentration_ug_ml", "invalid_value"],
      ["protocol.template_parameters.organism", "invalid_value"],
      ["protocol.template_parameters.inoculum", "missing_required"],
    ]);
    const draft = validateExperimentRequest(specialRequests.standardTemplate, {
      mode: "draft",
      now: FIXTURE_NOW,
      checkTemplate,
    });
    expect(draft.errors.map((e) => e.code)).toEqual(["invalid_value", "invalid_value"]);
    expect(draft.warnings.find((w) => w.code === "missing_required")?.path).toBe(
      "protocol.template_parameters.inoculum",
    );
    const fine = validateExperimentRequest(specialRequests.standardTemplate, {
      mode: "submit",
      now: FIXTURE_NOW,
      checkTemplate: () => [],
    });
    expect(fine.valid).toBe(true);
    calls.length = 0;
    validateExperimentRequest(validRequests.MIC_MBC_ASSAY, {
      mode: "submit",
      now: FIXTURE_NOW,
      checkTemplate,
    });
    expect(calls).toEqual([]);
  });
});

describe("communication preferences", () => {
  const withPrefs = (communication_preferences: unknown) => ({
    ...minimal("MIC_MBC_ASSAY"),
    communication_preferences,
  });

  it("webhook_url must be https", () => {
    expect(
      errorAt(
        run(withPrefs({ webhook_url: "http://example.org/hook" })),
        "communication_preferences.webhook_url",
      ),
    ).toEqual([
      expect.objectContaining({
        code: "invalid_value",
        message: "communication_preferences.webhook_url must be an absolute https:// URL",
      }),
    ]);
    expect(run(withPrefs({ webhook_url: "not a url" })).valid).toBe(false);
    expect(run(withPrefs({ webhook_url: "https://hooks.example.org/x" })).valid).toBe(true);
  });

  it("notification_events come from the six event names and are stored once each", () => {
    const bad = run(withPrefs({ notification_events: ["claimed", "paid"] }));
    expect(errorAt(bad, "communication_preferences.notification_events[1]")[0]?.message).toContain(
      '"claimed", "started", "completed", "issue", "approved", "disputed"',
    );
    const good = run(
      withPrefs({
        webhook_url: "https://h.example.org",
        notification_events: ["claimed", "claimed", "approved"],
      }),
    );
    expect(good.request?.communication_preferences.notification_events).toEqual(["claimed", "approved"]);
  });

  it("preferred_contact webhook needs a webhook_url", () => {
    expect(
      errorAt(run(withPrefs({ preferred_contact: "webhook" })), "communication_preferences.webhook_url")[0]
        ?.code,
    ).toBe("missing_required");
  });
});

describe("acceptance criteria", () => {
  const withCriteria = (acceptance_criteria: unknown) => ({
    ...minimal("MIC_MBC_ASSAY"),
    acceptance_criteria,
  });

  it("between needs {min, max} and other operators a number", () => {
    const result = run(
      withCriteria({
        success_conditions: [
          { metric: "MIC", operator: "between", threshold: 4, unit: "µg/mL" },
          { metric: "MIC", operator: "lte", threshold: { min: 1, max: 2 }, unit: "µg/mL" },
          { metric: "MIC", operator: "not_between", threshold: { min: 4, max: 1 }, unit: "µg/mL" },
          { metric: "MIC", operator: "between", threshold: { min: 1 }, unit: "µg/mL" },
          { metric: "MIC", operator: "approx", threshold: 1 },
        ],
        statistical_requirements: { significance_level: 1.5, statistical_test: "z_test" },
      }),
    );
    const paths = result.errors.map((e) => [e.path, e.code]);
    expect(paths).toEqual(
      expect.arrayContaining([
        ["acceptance_criteria.success_conditions[0].threshold", "invalid_value"],
        ["acceptance_criteria.success_conditions[1].threshold", "invalid_value"],
        ["acceptance_criteria.success_conditions[2].threshold", "invalid_value"],
        ["acceptance_criteria.success_conditions[3].threshold.max", "missing_required"],
        ["acceptance_criteria.success_conditions[4].operator", "invalid_value"],
        ["acceptance_criteria.statistical_requirements.significance_level", "invalid_value"],
        ["acceptance_criteria.statistical_requirements.statistical_test", "invalid_value"],
      ]),
    );
  });
});
