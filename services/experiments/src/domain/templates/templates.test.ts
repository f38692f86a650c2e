import { describe, expect, it } from "vitest";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import type { ProtocolTemplate } from "./index.js";
import {
  TEMPLATES,
  TEMPLATE_CATEGORIES,
  applyTemplateDefaults,
  checkParametersAgainstTemplate,
  checkTemplateParameters,
  formatCostRange,
  getTemplate,
  isTemplateCategory,
  listTemplates,
  normalizeBslLevel,
} from "./index.js";
import { INTAKE_MARKET_BANDS_USD } from "../../../test/support/market-bands.js";

const MIC = "mic-broth-microdilution-v1";
const P = (name: string) => `protocol.template_parameters.${name}`;

describe("template catalogue", () => {
  it("has at least one template for every experiment type", () => {
    for (const type of EXPERIMENT_TYPES) {
      expect(
        TEMPLATES.some((t) => t.experiment_type === type),
        type,
      ).toBe(true);
    }
  });

  it("gives every template a unique id with a version suffix matching its version's major number", () => {
    const ids = TEMPLATES.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const t of TEMPLATES) {
      const match = /^[a-z0-9]+(?:-[a-z0-9]+)*-v(\d+)$/.exec(t.id);
      expect(match, t.id).not.toBeNull();
      expect(t.version, t.id).toMatch(/^\d+\.\d+\.\d+$/);
      expect(t.version.split(".")[0], t.id).toBe(match?.[1]);
    }
  });

  it("holds full records (docs/api.md Template fields) with sane contents", () => {
    for (const t of TEMPLATES) {
      expect(t.name.length, t.id).toBeGreaterThan(5);
      expect(t.description.length, t.id).toBeGreaterThan(40);
      expect(TEMPLATE_CATEGORIES, t.id).toContain(t.category);
      expect(["BSL-1", "BSL-2"], t.id).toContain(t.bsl_level);
      expect(EXPERIMENT_TYPES, t.id).toContain(t.experiment_type);
      expect(t.parameters.length, t.id).toBeGreaterThan(0);
      expect(t.equipment_required.length, t.id).toBeGreaterThan(0);
      expect(t.typical_materials.length, t.id).toBeGreaterThan(0);
      expect(t.protocol_steps.length, t.id).toBeGreaterThanOrEqual(4);
    }
  });

  it("numbers steps from 1 and derives the duration from them", () => {
    for (const t of TEMPLATES) {
      expect(
        t.protocol_steps.map((s) => s.step),
        t.id,
      ).toEqual(t.protocol_steps.map((_, i) => i + 1));
      for (const s of t.protocol_steps) {
        expect(Number.isInteger(s.duration_minutes) && s.duration_minutes > 0, `${t.id} step ${s.step}`).toBe(
          true,
        );
        expect(s.action.length).toBeGreaterThan(10);
      }
      const minutes = t.protocol_steps.reduce((sum, s) => sum + s.duration_minutes, 0);
      expect(t.estimated_duration_hours, t.id).toBe(Math.ceil(minutes / 60));
    }
  });

  it("prices every template inside its type's market band (CUSTOM: a band of its own)", () => {
    for (const t of TEMPLATES) {
      const { low, high } = t.estimated_cost_usd;
      expect(Number.isInteger(low) && Number.isInteger(high) && 0 < low && low < high, t.id).toBe(true);
      const band = INTAKE_MARKET_BANDS_USD[t.experiment_type];
      if (band) {
        expect(low, t.id).toBeGreaterThanOrEqual(band[0]);
        expect(high, t.id).toBeLessThanOrEqual(band[1]);
      }
    }
  });

  it("describes materials generically, without vendor catalogue numbers", () => {
    for (const t of TEMPLATES) {
      for (const m of t.typical_materials) {
        expect(m.name.length, t.id).toBeGreaterThan(0);
        // Catalogue numbers look like "A1234-56", "12345", "cat. no."; ATCC strain numbers do not appear here.
        expect(m.catalog, `${t.id}: ${m.catalog}`).not.toMatch(
          /\b[A-Z]{0,3}\d{4,}(-\d+)?\b|cat\.?\s*(no|#)/i,
        );
      }
    }
  });

  it("gives parameters unique names, a default for every required one, and well-formed specs", () => {
    for (const t of TEMPLATES) {
      const names = t.parameters.map((p) => p.name);
      expect(new Set(names).size, t.id).toBe(names.length);
      for (const p of t.parameters) {
        expect(p.name, t.id).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(p.description.length, `${t.id}.${p.name}`).toBeGreaterThan(5);
        if (p.required) expect(p.default, `${t.id}.${p.name}`).not.toBeUndefined();
        if (p.type === "enum") expect(p.allowed_values.length, `${t.id}.${p.name}`).toBeGreaterThan(1);
        if (
          (p.type === "number" || p.type === "integer") &&
          p.minimum !== undefined &&
          p.maximum !== undefined
        ) {
          expect(p.minimum, `${t.id}.${p.name}`).toBeLessThan(p.maximum);
        }
      }
    }
  });

  it("passes its own parameter check with its defaults, applied or omitted", () => {
    for (const t of TEMPLATES) {
      const withDefaults = applyTemplateDefaults(t.id, {});
      for (const p of t.parameters) {
        if (p.default !== undefined) expect(withDefaults[p.name], `${t.id}.${p.name}`).toEqual(p.default);
      }
      expect(checkTemplateParameters(t.id, withDefaults), t.id).toEqual([]);
      expect(checkTemplateParameters(t.id, {}), t.id).toEqual([]);
      expect(checkTemplateParameters(t.id, undefined), t.id).toEqual([]);
    }
  });

  it("is frozen: the catalogue cannot be changed by a caller", () => {
    const t = getTemplate(MIC) as ProtocolTemplate;
    expect(() => {
      (t as { name: string }).name = "changed";
    }).toThrow(TypeError);
    expect(() => {
      (t.parameters as unknown[]).push({});
    }).toThrow(TypeError);
    expect(getTemplate(MIC)?.name).toBe("MIC by broth microdilution");
  });
});

describe("getTemplate", () => {
  it("returns the full record for a known id and undefined otherwise", () => {
    expect(getTemplate(MIC)?.experiment_type).toBe("MIC_MBC_ASSAY");
    expect(getTemplate("mic-broth-microdilution")).toBeUndefined();
    expect(getTemplate("MIC-BROTH-MICRODILUTION-V1")).toBeUndefined();
    expect(getTemplate("constructor")).toBeUndefined();
    expect(getTemplate(42)).toBeUndefined();
  });
});

describe("checkTemplateParameters", () => {
  it("reports an unknown template id at protocol.template_id", () => {
    expect(checkTemplateParameters("no-such-template-v1", {})).toEqual([
      {
        path: "protocol.template_id",
        code: "invalid_value",
        message: expect.stringContaining("no-such-template-v1"),
      },
    ]);
    expect(checkTemplateParameters(undefined, {})).toMatchObject([
      { path: "protocol.template_id", code: "invalid_value" },
    ]);
  });

  it("reports a parameter the template does not define", () => {
    expect(checkTemplateParameters(MIC, { incubation_hours: 18, colour: "blue" })).toEqual([
      { path: P("colour"), code: "invalid_value", message: expect.stringContaining("colour") },
    ]);
  });

  it("reports a required parameter sent as null as missing; an optional null is accepted", () => {
    expect(checkTemplateParameters(MIC, { incubation_hours: null })).toMatchObject([
      { path: P("incubation_hours"), code: "missing_required" },
    ]);
    expect(checkTemplateParameters(MIC, { include_qc_strain: null })).toEqual([]);
  });

  it("reports a required parameter without a default that is absent", () => {
    const base = getTemplate(MIC) as ProtocolTemplate;
    const template: ProtocolTemplate = {
      ...base,
      parameters: [
        { name: "organism", type: "string", required: true, description: "Organism.", max_length: 50 },
      ],
    };
    expect(checkParametersAgainstTemplate(template, {})).toEqual([
      { path: P("organism"), code: "missing_required", message: expect.any(String) },
    ]);
    expect(checkParametersAgainstTemplate(template, { organism: "E. coli" })).toEqual([]);
  });

  it.each([
    ["a string for a number", { incubation_hours: "18" }, "incubation_hours"],
    ["a number below the minimum", { incubation_hours: 12 }, "incubation_hours"],
    ["a number above the maximum", { incubation_hours: 25 }, "incubation_hours"],
    ["NaN", { incubation_hours: Number.NaN }, "incubation_hours"],
    ["Infinity", { highest_concentration_ug_ml: Number.POSITIVE_INFINITY }, "highest_concentration_ug_ml"],
    ["a fraction for an integer", { number_of_concentrations: 8.5 }, "number_of_concentrations"],
    ["an integer out of bounds", { number_of_concentrations: 2 }, "number_of_concentrations"],
    ["a value outside the enum", { readout: "smell" }, "readout"],
    ["a number for an enum", { readout: 1 }, "readout"],
    ["a string for a boolean", { include_qc_strain: "yes" }, "include_qc_strain"],
    ["an empty string", { medium: "  " }, "medium"],
    ["an over-long string", { medium: "x".repeat(201) }, "medium"],
    ["an object for a string", { medium: { name: "CAMHB" } }, "medium"],
  ])("reports %s as invalid_value", (_, parameters, name) => {
    expect(checkTemplateParameters(MIC, parameters)).toEqual([
      { path: P(name), code: "invalid_value", message: expect.stringContaining(name) },
    ]);
  });

  it("accepts values on the bounds and every allowed enum value", () => {
    expect(checkTemplateParameters(MIC, { incubation_hours: 16, incubation_temperature_c: 37 })).toEqual([]);
    expect(checkTemplateParameters(MIC, { incubation_hours: 24, number_of_concentrations: 3 })).toEqual([]);
    for (const readout of ["visual", "od600_threshold", "resazurin"]) {
      expect(checkTemplateParameters(MIC, { readout })).toEqual([]);
    }
  });

  it("reports parameters that are not an object at protocol.template_parameters", () => {
    for (const bad of [[1, 2], "incubation_hours=18", 7, true]) {
      expect(checkTemplateParameters(MIC, bad)).toMatchObject([
        { path: "protocol.template_parameters", code: "invalid_value" },
      ]);
    }
    expect(checkTemplateParameters(MIC, null)).toEqual([]);
  });

  it("reports every problem, in template order then unknown names", () => {
    const errors = checkTemplateParameters(MIC, { zzz: 1, readout: "x", number_of_concentrations: null });
    expect(errors.map((e) => [e.path, e.code])).toEqual([
      [P("number_of_concentrations"), "missing_required"],
      [P("readout"), "invalid_value"],
      [P("zzz"), "invalid_value"],
    ]);
  });

  it("does not consult the prototype chain for parameter names", () => {
    const parameters = JSON.parse('{"__proto__": {"x": 1}, "constructor": 1}') as unknown;
    expect(checkTemplateParameters(MIC, parameters).map((e) => e.path)).toEqual([
      P("__proto__"),
      P("constructor"),
    ]);
  });
});

describe("applyTemplateDefaults", () => {
  it("fills what was not sent and keeps what was, null included, without mutating the input", () => {
    const sent = { incubation_hours: 20, include_qc_strain: null, extra: 1 };
    const out = applyTemplateDefaults(MIC, sent);
    expect(out).toMatchObject({
      incubation_hours: 20,
      include_qc_strain: null,
      extra: 1,
      incubation_temperature_c: 35,
      number_of_concentrations: 10,
      medium: "cation-adjusted Mueller-Hinton broth",
    });
    expect(sent).toEqual({ incubation_hours: 20, include_qc_strain: null, extra: 1 });
  });

  it("adds nothing for an unknown template or non-object parameters", () => {
    expect(applyTemplateDefaults("nope-v1", { a: 1 })).toEqual({ a: 1 });
    expect(applyTemplateDefaults(MIC, [1])).toEqual(applyTemplateDefaults(MIC, {}));
  });
});

describe("listTemplates", () => {
  it("lists every template with the listing fields and a cost range string", () => {
    const all = listTemplates();
    expect(all.map((t) => t.id)).toEqual(TEMPLATES.map((t) => t.id));
    for (const item of all) {
      const t = getTemplate(item.id) as ProtocolTemplate;
      expect(Object.keys(item).sort()).toEqual(
        ["bsl_level", "category", "description", "estimated_cost_range", "id", "name"].sort(),
      );
      expect(item.estimated_cost_range).toBe(`$${t.estimated_cost_usd.low}-$${t.estimated_cost_usd.high}`);
    }
    expect(all.find((t) => t.id === MIC)?.estimated_cost_range).toBe("$200-$350");
  });

  it.each([
    ["BSL-1", ["BSL1", "BSL-1", "bsl1", "bsl-1", "BSL 1", "bsl_1", " Bsl-1 "]],
    ["BSL-2", ["BSL2", "BSL-2", "bsl2", "bsl-2", "BSL 2"]],
  ])("filters by %s in any spelling", (level, spellings) => {
    const expected = TEMPLATES.filter((t) => t.bsl_level === level).map((t) => t.id);
    expect(expected.length).toBeGreaterThan(0);
    for (const s of spellings) {
      expect(
        listTemplates({ bsl_level: s }).map((t) => t.id),
        s,
      ).toEqual(expected);
    }
  });

  it("filters by category, case-insensitively, and combines filters", () => {
    for (const category of TEMPLATE_CATEGORIES) {
      const listed = listTemplates({ category: category.toUpperCase() });
      expect(listed.length, category).toBeGreaterThan(0);
      expect(listed.every((t) => t.category === category)).toBe(true);
    }
    const both = listTemplates({ category: "microbiology", bsl_level: "BSL1" });
    expect(both.map((t) => t.id)).toEqual(
      TEMPLATES.filter((t) => t.category === "microbiology" && t.bsl_level === "BSL-1").map((t) => t.id),
    );
  });

  it("matches nothing for an unknown category or level, and ignores empty filters", () => {
    expect(listTemplates({ category: "astrology" })).toEqual([]);
    expect(listTemplates({ bsl_level: "BSL3" })).toEqual([]);
    expect(listTemplates({ bsl_level: "level one" })).toEqual([]);
    expect(listTemplates({ category: "", bsl_level: null })).toHaveLength(TEMPLATES.length);
  });
});

describe("helpers", () => {
  it("normalizeBslLevel", () => {
    expect(normalizeBslLevel("BSL1")).toBe("BSL-1");
    expect(normalizeBslLevel("bsl-2")).toBe("BSL-2");
    expect(normalizeBslLevel("BSL-3")).toBe("BSL-3");
    expect(normalizeBslLevel(2)).toBe("BSL-2");
    expect(normalizeBslLevel("BSL5")).toBeNull();
    expect(normalizeBslLevel("BSL-12")).toBeNull();
    expect(normalizeBslLevel(undefined)).toBeNull();
  });

  it("isTemplateCategory and formatCostRange", () => {
    expect(isTemplateCategory("analytical")).toBe(true);
    expect(isTemplateCategory("Analytical")).toBe(false);
    expect(formatCostRange({ low: 200, high: 400 })).toBe("$200-$400");
    expect(formatCostRange({ low: 99.5, high: 150 })).toBe("$99.50-$150");
  });
});
