/**
 * What the sandbox lab "measures": results derived deterministically from the plan (the same
 * request always gives the same numbers), shaped like a real lab's, and labelled as simulated
 * everywhere they appear. They are not measurements and claim nothing about the compounds.
 * Pure: hashing only.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "@petri/service-kit";
import type { LabPlan } from "./plan.js";

export const SIMULATED_NOTE =
  "Simulated by the Petri sandbox lab from the request alone: not a measurement, and no claim about the compounds or organisms named.";

/** A number in [0, 1) fixed by the plan and a label. */
function unit(plan: LabPlan, label: string): number {
  const digest = createHash("sha256").update(canonicalJson(plan)).update("\u0000").update(label).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

const round = (value: number, digits = 3) => Number(value.toPrecision(digits));

/** A tested concentration (or one step beyond either end, written as "<=" / ">"). */
function seriesCall(concentrations: readonly number[], u: number, unitName: string): string {
  const sorted = [...concentrations].sort((a, b) => a - b);
  if (sorted.length === 0) return "not determined";
  const index = Math.floor(u * (sorted.length + 2)) - 1;
  if (index < 0) return `<=${round(sorted[0]!)} ${unitName}`;
  if (index >= sorted.length) return `>${round(sorted[sorted.length - 1]!)} ${unitName}`;
  return `${round(sorted[index]!)} ${unitName}`;
}

export function simulatedResults(plan: LabPlan, rawDataUrl: string): Record<string, unknown> {
  const base = { simulated: true, note: SIMULATED_NOTE, raw_data_url: rawDataUrl };
  switch (plan.experiment_type) {
    case "MIC_MBC_ASSAY": {
      const micValues: Record<string, Record<string, string>> = {};
      for (const compound of plan.compounds) {
        micValues[compound.name] = {};
        for (const organism of plan.organisms) {
          const name = organism.strain ? `${organism.name} ${organism.strain}` : organism.name;
          micValues[compound.name]![name] = seriesCall(
            compound.concentrations_ug_ml,
            unit(plan, `${compound.name}|${name}`),
            "ug/mL",
          );
        }
      }
      return { ...base, mic_values: micValues };
    }
    case "ZONE_OF_INHIBITION": {
      const zones: Record<string, Record<string, string>> = {};
      for (const agent of plan.agents) {
        zones[agent.name] = {};
        for (const organism of plan.organisms) {
          const mm = plan.disk_diameter_mm + Math.floor(unit(plan, `${agent.name}|${organism.name}`) * 25);
          zones[agent.name]![organism.name] = `${mm} mm`;
        }
      }
      return { ...base, zone_diameters_mm: zones };
    }
    case "CELL_VIABILITY_IC50":
      return {
        ...base,
        ic50_values: {
          [plan.compound.name]: seriesCall(plan.compound.concentrations_um, unit(plan, "ic50"), "uM"),
        },
      };
    case "ENZYME_INHIBITION_IC50":
      return {
        ...base,
        ic50_values: {
          [plan.inhibitor.name]: seriesCall(plan.inhibitor.concentrations_um, unit(plan, "ic50"), "uM"),
        },
      };
    case "QPCR_EXPRESSION":
      return {
        ...base,
        fold_changes: Object.fromEntries(
          plan.targets.map((target) => [target, `${round(2 ** (unit(plan, target) * 6 - 3))}`]),
        ),
      };
    case "SANGER_PLASMID_VERIFICATION":
      return {
        ...base,
        templates: Array.from({ length: plan.templates }, (_, i) => ({
          template: i + 1,
          matches_reference: unit(plan, `template ${i}`) >= 0.2,
        })),
      };
    case "MICROBIAL_GROWTH_MATRIX":
      return {
        ...base,
        growth_rates_per_hour: Object.fromEntries(
          plan.conditions.map((condition) => [
            condition.label,
            `${round(0.2 + unit(plan, condition.label) * 1.3)}`,
          ]),
        ),
      };
    case "CUSTOM":
      return { ...base, steps_completed: plan.steps.length };
  }
}

/** The simulated raw data behind the results, as CSV (one row per reading). */
export function simulatedRawData(plan: LabPlan): string {
  const rows = ["well,reading,value"];
  const wells = Math.min(96, Math.max(1, plan.sample_count));
  const reading = plan.detection_method;
  for (let well = 0; well < wells; well += 1) {
    const row = String.fromCharCode(65 + Math.floor(well / 12));
    rows.push(`${row}${(well % 12) + 1},${reading},${round(unit(plan, `well ${well}`) * 2, 4)}`);
  }
  return `${rows.join("\n")}\n`;
}
