/**
 * LabPlan -> SLL protocol (JSON + text). Pure and deterministic. Throws SllNotExpressibleError
 * for plans SLL cannot express (the caller answers 422), never returns an unchecked protocol.
 */
import type { LabPlan } from "../plan.js";
import { requireSome } from "./builders/common.js";
import { customProtocol } from "./builders/custom.js";
import { enzymeProtocol } from "./builders/enzyme.js";
import { growthProtocol } from "./builders/growth.js";
import { micProtocol } from "./builders/mic.js";
import { qpcrProtocol } from "./builders/qpcr.js";
import { sangerProtocol } from "./builders/sanger.js";
import { viabilityProtocol } from "./builders/viability.js";
import { zoneProtocol } from "./builders/zone.js";
import { SllRenderError } from "./errors.js";
import { renderSll } from "./render.js";
import type { SllProtocol, SllProtocolBody } from "./types.js";

/**
 * Ceilings for any plan within PLAN_LIMITS (the bounds test builds the largest plans of every
 * type and stays below them). The largest is a MIC plan at every limit: 8 organisms x 6
 * biological x (8 compounds x 6 technical + QC) series of 26 wells on 96-well plates.
 */
export const SLL_LIMITS = {
  steps: 8_000,
  text_chars: 6_000_000,
} as const;

function body(plan: LabPlan): SllProtocolBody {
  requireSome(plan.replicates.technical, "replicates.technical");
  requireSome(plan.replicates.biological, "replicates.biological");
  switch (plan.experiment_type) {
    case "MIC_MBC_ASSAY":
      return micProtocol(plan);
    case "ZONE_OF_INHIBITION":
      return zoneProtocol(plan);
    case "CELL_VIABILITY_IC50":
      return viabilityProtocol(plan);
    case "ENZYME_INHIBITION_IC50":
      return enzymeProtocol(plan);
    case "QPCR_EXPRESSION":
      return qpcrProtocol(plan);
    case "SANGER_PLASMID_VERIFICATION":
      return sangerProtocol(plan);
    case "MICROBIAL_GROWTH_MATRIX":
      return growthProtocol(plan);
    case "CUSTOM":
      return customProtocol(plan);
  }
}

export function toSll(plan: LabPlan): SllProtocol {
  const protocol = body(plan);
  if (protocol.steps.length > SLL_LIMITS.steps) {
    throw new SllRenderError(`${protocol.steps.length} steps exceed the limit of ${SLL_LIMITS.steps}`);
  }
  // renderSll checks the body against the allow-list and the label/well rules and throws
  // SllRenderError on any problem: a protocol that fails the check is a generator bug.
  const text = renderSll(protocol);
  if (text.length > SLL_LIMITS.text_chars) {
    throw new SllRenderError(`${text.length} characters of SLL exceed the limit of ${SLL_LIMITS.text_chars}`);
  }
  return { ...protocol, text };
}
