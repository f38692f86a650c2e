import { create } from "@bufbuild/protobuf";
import {
  GetTemplateResponseSchema,
  ListTemplatesResponseSchema,
  ProtocolTemplateSchema,
  TemplateSummarySchema,
} from "@petri/contracts/experiments";
import { fromRestJson } from "@petri/contracts/rest-json";
import { describe, expect, it } from "vitest";
import { templateJson, templateListJson } from "./templates-json.js";

const summary = {
  id: "mic-broth-microdilution-v1",
  name: "Broth microdilution MIC",
  description: "CLSI M07 outline",
  category: "microbiology",
  bsl_level: "BSL-2",
  estimated_cost_range: "$200-$400",
};

const template = {
  id: "mic-broth-microdilution-v1",
  name: "Broth microdilution MIC",
  description: "CLSI M07 outline",
  category: "microbiology",
  bsl_level: "BSL-2",
  version: "1.0.0",
  experiment_type: "MIC_MBC_ASSAY",
  parameters: [
    {
      name: "dilution_series",
      type: "enum",
      required: true,
      default: "2-fold",
      description: "Spacing",
      allowed_values: ["2-fold", "3-fold"],
    },
    {
      name: "hours",
      type: "integer",
      required: false,
      default: 18,
      description: "Incubation",
      unit: "hours",
      minimum: 16,
      maximum: 24,
    },
  ],
  equipment_required: ["Incubator"],
  typical_materials: [{ name: "Mueller-Hinton broth", catalog: "cation-adjusted" }],
  estimated_cost_usd: { low: 200, high: 400 },
  estimated_duration_hours: 20,
  protocol_steps: [{ step: 1, action: "Dilute", duration_minutes: 30 }],
};

describe("templates from the experiments service's answers (D352)", () => {
  it("writes the typed template, which wins over the JSON text", () => {
    const answer = create(GetTemplateResponseSchema, {
      template: fromRestJson(ProtocolTemplateSchema, template as never),
      templateJson: JSON.stringify({ ...template, name: "the text form" }),
    });
    expect(JSON.stringify(templateJson(answer))).toBe(JSON.stringify(template));
  });

  it("reads the JSON text from a service that sends no typed template", () => {
    const answer = create(GetTemplateResponseSchema, { templateJson: JSON.stringify(template) });
    expect(templateJson(answer)).toEqual(template);
  });

  it("lists the typed summaries, else the JSON text of each", () => {
    const typed = create(ListTemplatesResponseSchema, {
      templates: [fromRestJson(TemplateSummarySchema, summary)],
      templatesJson: [JSON.stringify({ ...summary, name: "the text form" })],
    });
    expect(JSON.stringify(templateListJson(typed))).toBe(JSON.stringify([summary]));
    const text = create(ListTemplatesResponseSchema, { templatesJson: [JSON.stringify(summary)] });
    expect(templateListJson(text)).toEqual([summary]);
  });
});
