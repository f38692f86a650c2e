import { describe, expect, it } from "vitest";
import { checkTemplateParameters, getTemplate, TEMPLATES } from "../templates/index.js";
import { FIXTURE_NOW, fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import { validateExperimentRequest } from "../intake/index.js";
import { jobRequirementsOf } from "./job-requirements.js";

/** The stored (normalised) form of a fixture, as the experiments table keeps it. */
function stored(body: unknown): unknown {
  const result = validateExperimentRequest(body, {
    mode: "submit",
    now: FIXTURE_NOW,
    checkTemplate: checkTemplateParameters,
  });
  if (!result.request) throw new Error(`fixture invalid: ${JSON.stringify(result.errors)}`);
  return result.request;
}

const firstTemplateOf = (type: string) => TEMPLATES.find((t) => t.experiment_type === type)!;

describe("job requirements of a request", () => {
  it("takes type, BSL-1 by default, budget in cents, standard priority and open privacy from a minimal request", () => {
    const job = jobRequirementsOf(stored(validRequests.MIC_MBC_ASSAY));
    expect(job).toMatchObject({
      experimentType: "MIC_MBC_ASSAY",
      bslLevel: "BSL-1",
      needsHumanSamplesApproval: false,
      needsAnimalSamplesApproval: false,
      needsHazardousChemicalsApproval: false,
      budgetCents: 30_000,
      deadline: "",
      priority: "standard",
      customProtocol: false,
      category: "microbiology",
      privacy: "open",
    });
    // A standard assay's equipment is covered by the verified competency: no hard filter.
    expect(job.equipmentRequired).toEqual([]);
  });

  it("reads either spelling of budget, turnaround and priority from a body as sent", () => {
    const body = {
      experiment_type: "qpcr_expression",
      compliance: { bsl: "BSL2", human_derived_material: true },
      constraints: { budget_max_usd: 350.255 },
      turnaround_days: 9,
      turnaround_priority: "Urgent",
      privacy: "private",
      qpcr: { chemistry: "TAQMAN" },
    };
    expect(jobRequirementsOf(body)).toMatchObject({
      experimentType: "QPCR_EXPRESSION",
      bslLevel: "BSL-2",
      needsHumanSamplesApproval: true,
      budgetCents: 35_026,
      desiredTurnaroundDays: 9,
      priority: "urgent",
      privacy: "private",
      menuTags: ["qpcr_taqman"],
      category: "molecular_biology",
    });
  });

  it("takes every field the full fixtures state, in their stored form", () => {
    for (const body of Object.values(fullRequests)) {
      const request = stored(body) as Record<string, any>;
      const job = jobRequirementsOf(request);
      expect(job.experimentType).toBe(request.experiment_type);
      expect(job.bslLevel).toBe(request.compliance.bsl);
      expect(job.budgetCents).toBe(Math.round(request.turnaround_budget.budget_max_usd * 100));
      expect(job.deadline).toBe(request.turnaround_budget.hard_deadline ?? "");
      expect(job.priority).toBe(request.turnaround_budget.priority);
      expect(job.desiredTurnaroundDays).toBe(request.turnaround_budget.desired_turnaround_days ?? 0);
      expect(job.privacy).toBe(request.privacy);
      expect(job.needsHumanSamplesApproval).toBe(request.compliance.human_derived_material);
      expect(job.needsAnimalSamplesApproval).toBe(request.compliance.animal_derived_material);
    }
  });

  it("uses the named template's category, and requires no equipment of a standard assay", () => {
    const body = structuredClone(specialRequests.standardTemplate) as Record<string, any>;
    const template = TEMPLATES.filter((t) => t.experiment_type === "MIC_MBC_ASSAY")[1]!;
    body.protocol = { type: "standard_template", template_id: template.id };
    const job = jobRequirementsOf(stored(body));
    expect(getTemplate(template.id)).toBe(template);
    expect(template.equipment_required.length).toBeGreaterThan(0);
    expect(job.equipmentRequired).toEqual([]);
    expect(job.category).toBe(template.category);
    expect(job.priority).toBe("expedited");
    expect(job.desiredTurnaroundDays).toBe(14);
  });

  it("ignores a named template of another type", () => {
    const job = jobRequirementsOf({
      experiment_type: "ZONE_OF_INHIBITION",
      protocol: { type: "standard_template", template_id: "agarose-gel-electrophoresis-v1" },
    });
    expect(job.category).toBe(firstTemplateOf("ZONE_OF_INHIBITION").category);
  });

  it("takes a custom protocol's required equipment only, and marks the job custom", () => {
    const body = structuredClone(validRequests.CUSTOM) as Record<string, any>;
    body.custom_protocol.equipment_required = [
      { name: "Absorbance plate reader" },
      { name: "  Plate   shaker ", required: true },
      { name: "Multichannel pipette", required: false },
    ];
    const job = jobRequirementsOf(stored(body));
    expect(job.equipmentRequired).toEqual(["Absorbance plate reader", "Plate   shaker"]);
    expect(job.customProtocol).toBe(true);
    expect(job.category).toBe("");
  });

  it("marks a protocol design request custom with nothing required yet", () => {
    const job = jobRequirementsOf(stored(specialRequests.protocolDesign));
    expect(job).toMatchObject({ experimentType: "CUSTOM", customProtocol: true, equipmentRequired: [] });
  });

  it("needs hazardous-chemicals approval for the compliance flag or a hazardous provided material", () => {
    expect(
      jobRequirementsOf({ compliance: { hazardous_chemicals: true } }).needsHazardousChemicalsApproval,
    ).toBe(true);
    expect(
      jobRequirementsOf({ materials_provided: [{ name: "Phenol", hazardous: true }] })
        .needsHazardousChemicalsApproval,
    ).toBe(true);
    expect(
      jobRequirementsOf({ protocol: { materials: [{ name: "Phenol", hazardous: true }] } })
        .needsHazardousChemicalsApproval,
    ).toBe(true);
    expect(
      jobRequirementsOf({ materials_provided: [{ name: "Water", hazardous: false }] })
        .needsHazardousChemicalsApproval,
    ).toBe(false);
  });

  it("keeps a BSL above 2 so that no lab qualifies, and never throws on junk", () => {
    expect(jobRequirementsOf({ compliance: { bsl: "BSL3" } }).bslLevel).toBe("BSL-3");
    for (const junk of [null, undefined, 42, "text", [], { experiment_type: 7, compliance: "x" }]) {
      const job = jobRequirementsOf(junk);
      expect(job).toMatchObject({
        experimentType: "",
        bslLevel: "BSL-1",
        budgetCents: 0,
        equipmentRequired: [],
      });
    }
    // Own properties only: nothing is read through the prototype.
    expect(jobRequirementsOf(JSON.parse('{"__proto__": {"experiment_type": "CUSTOM"}}')).experimentType).toBe(
      "",
    );
  });

  it("keeps a hard deadline only as a YYYY-MM-DD date", () => {
    expect(jobRequirementsOf({ turnaround_budget: { hard_deadline: "2027-01-31" } }).deadline).toBe(
      "2027-01-31",
    );
    expect(jobRequirementsOf({ turnaround_budget: { hard_deadline: "soon" } }).deadline).toBe("");
  });
});
