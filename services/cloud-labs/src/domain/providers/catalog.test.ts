import { validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";

import { EXPERIMENT_TYPES, type ExperimentTypeName } from "@petri/contracts/vocabulary";
import { interpretIntake } from "../interpret/interpret.js";
import type { CloudLabProvider } from "../plan.js";
import { estimateCost } from "./capabilities.js";
import { findProvider, PROVIDERS, supportedTypes } from "./catalog.js";

/** Market price bands of docs/intake-model.md (USD); CUSTOM is "variable". */
const PRICE_BANDS: Record<Exclude<ExperimentTypeName, "CUSTOM">, [number, number]> = {
  SANGER_PLASMID_VERIFICATION: [50, 150],
  QPCR_EXPRESSION: [200, 500],
  CELL_VIABILITY_IC50: [300, 800],
  ENZYME_INHIBITION_IC50: [200, 600],
  MICROBIAL_GROWTH_MATRIX: [150, 400],
  MIC_MBC_ASSAY: [200, 400],
  ZONE_OF_INHIBITION: [100, 250],
};

describe("provider catalog", () => {
  it("has an SLL and an Autoprotocol sandbox, honestly named and described as simulated", () => {
    const formats = new Set(PROVIDERS.map((p) => p.protocol_format));
    expect(formats).toEqual(new Set(["sll", "autoprotocol"]));
    for (const provider of PROVIDERS) {
      expect(provider.name).toMatch(/^Petri .*sandbox/);
      expect(provider.description).toMatch(/Simulated by Petri/);
      expect(provider.id).toMatch(/^[a-z0-9-]+$/);
    }
    expect(findProvider("petri-sll-sandbox")?.name).toBe("Petri SLL sandbox (Emerald-style)");
    expect(findProvider("petri-autoprotocol-sandbox")?.name).toBe(
      "Petri Autoprotocol sandbox (Strateos-style)",
    );
  });

  it("records are complete and consistent", () => {
    const ids = PROVIDERS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const provider of PROVIDERS) {
      expect(provider.supported_experiment_types.length).toBeGreaterThan(0);
      for (const type of provider.supported_experiment_types) expect(EXPERIMENT_TYPES).toContain(type);
      expect(provider.capabilities.plate_formats.length).toBeGreaterThan(0);
      expect(provider.capabilities.detection_methods.length).toBeGreaterThan(0);
      expect(provider.turnaround_days.min).toBeGreaterThan(0);
      expect(provider.turnaround_days.min).toBeLessThanOrEqual(provider.turnaround_days.max);
      expect(provider.pricing.base_cost_usd).toBeGreaterThan(0);
      expect(provider.pricing.per_sample_usd).toBeGreaterThan(0);
      expect(["BSL-1", "BSL-2"]).toContain(provider.max_bsl);
      if (provider.supported_experiment_types.includes("CELL_VIABILITY_IC50")) {
        expect(provider.capabilities.cell_lines.length).toBeGreaterThan(0);
      }
      if (provider.supported_experiment_types.includes("SANGER_PLASMID_VERIFICATION")) {
        expect(provider.capabilities.detection_methods).toContain("sanger_sequencing");
      }
      if (provider.supported_experiment_types.includes("QPCR_EXPRESSION")) {
        expect(provider.capabilities.detection_methods).toContain("qpcr_fluorescence");
      }
      if (provider.supported_experiment_types.includes("ZONE_OF_INHIBITION")) {
        expect(provider.capabilities.detection_methods).toContain("imaging");
      }
    }
  });

  it("is frozen data", () => {
    const provider = PROVIDERS[0] as CloudLabProvider;
    expect(Object.isFrozen(PROVIDERS)).toBe(true);
    expect(Object.isFrozen(provider.capabilities.cell_lines)).toBe(true);
    expect(() => {
      (provider.pricing as { base_cost_usd: number }).base_cost_usd = 0;
    }).toThrow();
  });

  it("findProvider finds by exact id only", () => {
    expect(findProvider("petri-microbiology-sandbox")?.protocol_format).toBe("autoprotocol");
    expect(findProvider("PETRI-SLL-SANDBOX")).toBeUndefined();
    expect(findProvider("nope")).toBeUndefined();
  });

  it("covers all eight types between them; CUSTOM on exactly one provider", () => {
    const types = supportedTypes();
    expect(types.map((t) => t.experiment_type)).toEqual([...EXPERIMENT_TYPES]);
    for (const entry of types) {
      expect(entry.providers.length).toBeGreaterThan(0);
      expect(entry.description.length).toBeGreaterThan(10);
    }
    expect(types.find((t) => t.experiment_type === "CUSTOM")?.providers).toEqual(["petri-sll-sandbox"]);
    expect(types.find((t) => t.experiment_type === "MIC_MBC_ASSAY")?.providers).toEqual([
      "petri-sll-sandbox",
      "petri-autoprotocol-sandbox",
      "petri-microbiology-sandbox",
    ]);
  });

  it("supportedTypes leaves out providers that are not available", () => {
    const down = PROVIDERS.map((p) =>
      p.id === "petri-sll-sandbox" ? { ...p, status: "maintenance" as const } : p,
    );
    const custom = supportedTypes(down).find((t) => t.experiment_type === "CUSTOM");
    expect(custom?.providers).toEqual([]);
  });

  it("prices a typical request of each supported type inside the market band", () => {
    for (const provider of PROVIDERS) {
      for (const type of provider.supported_experiment_types) {
        if (type === "CUSTOM") continue;
        const result = interpretIntake(validRequests[type], provider);
        if ("problems" in result) throw new Error(`${type}: ${JSON.stringify(result.problems)}`);
        const { estimated_cost_usd: cost } = estimateCost(result.plan, provider);
        const [low, high] = PRICE_BANDS[type];
        expect({ provider: provider.id, type, inBand: cost >= low && cost <= high, cost }).toMatchObject({
          inBand: true,
        });
      }
    }
  });
});
