/**
 * Every template of the catalogue, and every item of the list, is said exactly by its message
 * (decisions.md D352): the message writes back the same JSON text the catalogue holds, so the
 * typed fields the gateway reads never change what GET /templates shows.
 */
import { ProtocolTemplateSchema, TemplateSummarySchema } from "@petri/contracts/experiments";
import { toRestJson } from "@petri/contracts/rest-json";
import { describe, expect, it } from "vitest";

import { TEMPLATES, listTemplates } from "../domain/templates/index.js";
import { catalogueSummaryForms, catalogueTemplateForms, templateMessageForms } from "./template-message.js";

describe("templates as messages", () => {
  it.each(TEMPLATES.map((template) => [template.id, template] as const))(
    "%s: the message writes back the catalogue's JSON exactly",
    (_, template) => {
      const forms = catalogueTemplateForms(template);
      expect(forms.json).toBe(JSON.stringify(template));
      expect(forms.message, "does not fit its message").toBeDefined();
      expect(JSON.stringify(toRestJson(ProtocolTemplateSchema, forms.message!))).toBe(forms.json);
    },
  );

  it("every list item fits its message exactly", () => {
    const items = listTemplates({});
    expect(items).toHaveLength(TEMPLATES.length);
    for (const item of items) {
      const forms = catalogueSummaryForms(item);
      expect(forms.json).toBe(JSON.stringify(item));
      expect(forms.message, item.id).toBeDefined();
      expect(JSON.stringify(toRestJson(TemplateSummarySchema, forms.message!))).toBe(JSON.stringify(item));
    }
  });

  it("the catalogue holds every parameter type, both with and without allowed values, bounds and units", () => {
    const parameters = TEMPLATES.flatMap((template) => template.parameters);
    expect(new Set(parameters.map((parameter) => parameter.type))).toEqual(
      new Set(["string", "number", "integer", "boolean", "enum"]),
    );
    const text = JSON.stringify(parameters);
    for (const key of ["allowed_values", "minimum", "unit", "max_length"]) expect(text).toContain(`"${key}"`);
  });

  it("a value its message cannot say travels as text only", () => {
    const halfStep = {
      ...TEMPLATES[0]!,
      protocol_steps: [{ step: 1.5, action: "Mix", duration_minutes: 5 }],
    };
    const forms = templateMessageForms(halfStep);
    expect(forms.message).toBeUndefined();
    expect(forms.json).toBe(JSON.stringify(halfStep));
  });

  it("the catalogue's forms are built once: every answer gets the same ones", () => {
    const [template] = TEMPLATES;
    const [item] = listTemplates({});
    expect(catalogueTemplateForms(template!)).toBe(catalogueTemplateForms(template!));
    expect(catalogueSummaryForms(item!)).toBe(catalogueSummaryForms({ ...item! }));
  });

  it("a template outside the catalogue has no catalogue forms", () => {
    const stranger = { ...TEMPLATES[0]!, id: "not-in-the-catalogue" };
    expect(() => catalogueTemplateForms(stranger)).toThrow(
      "template not-in-the-catalogue is not in the catalogue",
    );
    expect(() => catalogueSummaryForms({ ...listTemplates({})[0]!, id: "x" })).toThrow(
      "not in the catalogue",
    );
  });
});
