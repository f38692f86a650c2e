/**
 * Intake -> protocol across the catalog: every type on every provider that runs it translates
 * (or refuses with a 422 naming the field), the Autoprotocol we emit passes its schema and the
 * semantic checker, and 500 fuzzed intakes never produce a protocol that breaks them, never
 * throw anything but a 422, and stay within the size bound.
 */
import { ValidationError } from "@petri/service-kit";
import { fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkAutoprotocol, schemaViolations } from "../domain/autoprotocol/index.js";
import { PROVIDERS } from "../domain/providers/index.js";
import { MAX_PROTOCOL_BYTES, translateIntake } from "./translation.js";

const clone = <T>(value: T): T => structuredClone(value) as T;

function outcome(intake: unknown, providerId: string) {
  try {
    return { translation: translateIntake(intake, providerId) };
  } catch (error) {
    if (error instanceof ValidationError) return { refused: error };
    throw error;
  }
}

describe("translation across the catalog", () => {
  for (const provider of PROVIDERS)
    for (const type of provider.supported_experiment_types)
      it(`${type} on ${provider.id}: a protocol in ${provider.protocol_format}, priced, or a 422 naming the field`, () => {
        for (const intake of [fullRequests[type], validRequests[type]]) {
          const result = outcome(clone(intake), provider.id);
          if (result.refused) {
            expect(result.refused.fieldErrors.length).toBeGreaterThan(0);
            continue;
          }
          const { translation } = result;
          expect(translation.protocolFormat).toBe(provider.protocol_format);
          expect(translation.estimatedCostCents).toBe(
            Math.round(provider.pricing.base_cost_usd * 100) +
              Math.round(provider.pricing.per_sample_usd * 100) * translation.plan.sample_count,
          );
          if (provider.protocol_format === "autoprotocol") {
            expect(translation.protocol).toHaveProperty("refs");
            expect(translation.protocol).toHaveProperty("instructions");
            expect([
              ...schemaViolations(translation.protocol),
              ...checkAutoprotocol(translation.protocol),
            ]).toEqual([]);
          } else {
            expect(translation.protocol).toHaveProperty("name");
            expect(translation.protocol).toHaveProperty("steps");
            expect(typeof translation.protocol.text).toBe("string");
          }
        }
      });

  it("translates every type on at least one provider", () => {
    for (const type of Object.keys(fullRequests) as (keyof typeof fullRequests)[]) {
      const providers = PROVIDERS.filter((p) => p.supported_experiment_types.includes(type));
      expect(providers.length, type).toBeGreaterThan(0);
      const intakes = [fullRequests[type], validRequests[type]];
      expect(
        providers.some((p) => intakes.some((intake) => outcome(clone(intake), p.id).translation)),
        type,
      ).toBe(true);
    }
  });

  it("reads the cloud-lab MIC form", () => {
    const autoprotocol = PROVIDERS.find(
      (p) => p.protocol_format === "autoprotocol" && p.supported_experiment_types.includes("MIC_MBC_ASSAY"),
    )!;
    const { translation } = outcome(clone(specialRequests.micCloudLab), autoprotocol.id);
    expect(translation?.plan.experiment_type).toBe("MIC_MBC_ASSAY");
  });

  it("refuses an unknown provider (404) and a type the provider does not run (422 on experiment_type)", () => {
    expect(() => translateIntake(clone(fullRequests.MIC_MBC_ASSAY), "no-such-lab")).toThrow(/not found/);
    const without = PROVIDERS.find(
      (p) => !p.supported_experiment_types.includes("SANGER_PLASMID_VERIFICATION"),
    )!;
    const refused = outcome(clone(fullRequests.SANGER_PLASMID_VERIFICATION), without.id).refused;
    expect(refused?.fieldErrors.map((e) => e.field)).toContain("experiment_type");
  });
});

/** Intakes built from the full fixtures with fuzzed numbers, lists and text. */
const fuzzedIntake = fc
  .record({
    type: fc.constantFrom(...(Object.keys(fullRequests) as (keyof typeof fullRequests)[])),
    technical: fc.integer({ min: -1, max: 8 }),
    biological: fc.integer({ min: 0, max: 8 }),
    text: fc.string({ maxLength: 300 }),
    concentrations: fc.array(fc.double({ min: -10, max: 1e6, noNaN: true }), { maxLength: 30 }),
    organisms: fc.array(fc.string({ minLength: 1, maxLength: 40 }), { maxLength: 10 }),
    hours: fc.double({ min: -5, max: 400, noNaN: true }),
  })
  .map(({ type, technical, biological, text, concentrations, organisms, hours }) => {
    const intake = clone(fullRequests[type]) as Record<string, unknown>;
    intake.replicates = { technical, biological };
    intake.title = `Fuzz ${text}`;
    if (type === "MIC_MBC_ASSAY")
      intake.mic_mbc_assay = {
        target_organisms: organisms,
        test_compounds: [{ name: text || "compound", concentrations_ug_ml: concentrations }],
      };
    for (const section of Object.values(intake))
      if (section && typeof section === "object" && !Array.isArray(section) && "incubation_hours" in section)
        (section as Record<string, unknown>).incubation_hours = hours;
    return { type, intake };
  });

describe("500 fuzzed intakes", () => {
  it("give a checked, bounded protocol or a 422, on every provider of their type", () => {
    let translated = 0;
    fc.assert(
      fc.property(fuzzedIntake, ({ type, intake }) => {
        for (const provider of PROVIDERS.filter((p) => p.supported_experiment_types.includes(type))) {
          const result = outcome(intake, provider.id);
          if (!result.translation) continue;
          translated += 1;
          expect(Buffer.byteLength(JSON.stringify(result.translation.protocol))).toBeLessThanOrEqual(
            MAX_PROTOCOL_BYTES,
          );
          if (provider.protocol_format === "autoprotocol")
            expect([
              ...schemaViolations(result.translation.protocol),
              ...checkAutoprotocol(result.translation.protocol),
            ]).toEqual([]);
        }
      }),
      { numRuns: 500, seed: 20261121 },
    );
    // The fuzzing must reach the generators, not only the refusals.
    expect(translated).toBeGreaterThan(100);
  });
});
