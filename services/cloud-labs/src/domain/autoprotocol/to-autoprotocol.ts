import type { LabPlan } from "../plan.js";
import { ProtocolNotExpressibleError } from "./errors.js";
import { buildCustomProtocol } from "./generators/custom.js";
import { buildEnzymeProtocol } from "./generators/enzyme.js";
import { buildGrowthProtocol } from "./generators/growth.js";
import { buildMicProtocol } from "./generators/mic.js";
import { buildQpcrProtocol } from "./generators/qpcr.js";
import { buildSangerProtocol } from "./generators/sanger.js";
import { buildViabilityProtocol } from "./generators/viability.js";
import { buildZoneProtocol } from "./generators/zone.js";
import { ProtocolBuilder, type TranslationResult } from "./protocol-builder.js";
import type { AutoprotocolDocument } from "./types.js";

/**
 * Upper bound on instructions for any plan within PLAN_LIMITS. One plate per protocol caps the
 * wells at 384 and no generator spends more than a few instructions per well; the fuzz test
 * checks the bound holds, and exceeding it is a bug, not a user error.
 */
export const MAX_AUTOPROTOCOL_INSTRUCTIONS = 2000;

/**
 * Translate a plan into an Autoprotocol document, with notes on what the document cannot say
 * (manual steps, assumed reagent strengths). Pure and deterministic.
 *
 * @throws ProtocolNotExpressibleError when the plan needs something no emitted op does
 * @throws ProtocolTooLargeError when the layout does not fit one plate
 */
export function translateToAutoprotocol(plan: LabPlan): TranslationResult {
  requirePositiveTimes(plan);
  const builder = new ProtocolBuilder();
  switch (plan.experiment_type) {
    case "MIC_MBC_ASSAY":
      buildMicProtocol(plan, builder);
      break;
    case "ZONE_OF_INHIBITION":
      buildZoneProtocol(plan, builder);
      break;
    case "CELL_VIABILITY_IC50":
      buildViabilityProtocol(plan, builder);
      break;
    case "ENZYME_INHIBITION_IC50":
      buildEnzymeProtocol(plan, builder);
      break;
    case "QPCR_EXPRESSION":
      buildQpcrProtocol(plan, builder);
      break;
    case "SANGER_PLASMID_VERIFICATION":
      buildSangerProtocol(plan, builder);
      break;
    case "MICROBIAL_GROWTH_MATRIX":
      buildGrowthProtocol(plan, builder);
      break;
    case "CUSTOM":
      buildCustomProtocol(plan, builder);
      break;
  }
  if (builder.instructionCount > MAX_AUTOPROTOCOL_INSTRUCTIONS) {
    throw new Error(
      `internal: ${plan.experiment_type} produced ${builder.instructionCount} instructions, above the ` +
        `${MAX_AUTOPROTOCOL_INSTRUCTIONS} bound`,
    );
  }
  return builder.build();
}

export function toAutoprotocol(plan: LabPlan): AutoprotocolDocument {
  return translateToAutoprotocol(plan).document;
}

function requirePositiveTimes(plan: LabPlan): void {
  const times: [string, number][] = [];
  switch (plan.experiment_type) {
    case "MIC_MBC_ASSAY":
    case "ZONE_OF_INHIBITION":
      times.push(["incubation_hours", plan.incubation_hours]);
      break;
    case "CELL_VIABILITY_IC50":
      times.push(["exposure_hours", plan.exposure_hours]);
      break;
    case "ENZYME_INHIBITION_IC50":
      times.push(["incubation_minutes", plan.incubation_minutes]);
      break;
    case "QPCR_EXPRESSION":
      if (!Number.isInteger(plan.cycles) || plan.cycles < 1) {
        throw new ProtocolNotExpressibleError([
          { field: "cycles", message: "cycles must be a positive integer" },
        ]);
      }
      break;
    case "MICROBIAL_GROWTH_MATRIX":
      times.push(["duration_hours", plan.duration_hours]);
      break;
    default:
      break;
  }
  const bad = times.filter(([, value]) => !(Number.isFinite(value) && value > 0));
  if (bad.length > 0) {
    throw new ProtocolNotExpressibleError(
      bad.map(([field]) => ({ field, message: `${field} must be positive` })),
    );
  }
}
