/**
 * The public summary of a plan (docs/api.md, POST /cloud-labs/interpret): who is tested, with what
 * at which concentrations, how often, for how long, read how; plus the confidence and notes the
 * PlanContext gathered while the plan was built.
 *
 * Per type: organisms are the microbes of MIC, zone and growth plans (cell lines, enzymes and
 * genes are not organisms, so those lists stay empty); compounds carry the plan's unit (µg/mL for
 * antimicrobials, µM on cells and enzymes, µg per disk for disk loadings); incubation_hours is
 * the incubation or exposure time, null where a plan has none (qPCR, Sanger, custom steps).
 */
import type { Interpretation, LabPlan } from "../plan.js";
import type { PlanContext } from "./context.js";

type Parameters = Interpretation["parameters"];

function microbesAndCompounds(
  plan: LabPlan,
): Pick<Parameters, "organisms" | "compounds" | "incubation_hours"> {
  switch (plan.experiment_type) {
    case "MIC_MBC_ASSAY":
      return {
        organisms: plan.organisms.map((o) => ({ ...o })),
        compounds: plan.compounds.map((c) => ({
          name: c.name,
          concentrations: [...c.concentrations_ug_ml],
          unit: "µg/mL",
        })),
        incubation_hours: plan.incubation_hours,
      };
    case "ZONE_OF_INHIBITION":
      return {
        organisms: plan.organisms.map((o) => ({ ...o })),
        compounds: plan.agents.map((a) => ({
          name: a.name,
          concentrations: [...a.disk_loading_ug],
          unit: "µg/disk",
        })),
        incubation_hours: plan.incubation_hours,
      };
    case "CELL_VIABILITY_IC50":
      return {
        organisms: [],
        compounds: [
          { name: plan.compound.name, concentrations: [...plan.compound.concentrations_um], unit: "µM" },
        ],
        incubation_hours: plan.exposure_hours,
      };
    case "ENZYME_INHIBITION_IC50":
      return {
        organisms: [],
        compounds: [
          { name: plan.inhibitor.name, concentrations: [...plan.inhibitor.concentrations_um], unit: "µM" },
        ],
        incubation_hours: Math.round((plan.incubation_minutes / 60) * 100) / 100,
      };
    case "MICROBIAL_GROWTH_MATRIX":
      return { organisms: [{ ...plan.organism }], compounds: [], incubation_hours: plan.duration_hours };
    case "QPCR_EXPRESSION":
    case "SANGER_PLASMID_VERIFICATION":
    case "CUSTOM":
      return { organisms: [], compounds: [], incubation_hours: null };
  }
}

export function summarise(plan: LabPlan, ctx: PlanContext): Interpretation {
  return {
    experiment_type: plan.experiment_type,
    parameters: {
      ...microbesAndCompounds(plan),
      replicates: plan.replicates.technical * plan.replicates.biological,
      detection_method: plan.detection_method,
    },
    confidence: ctx.confidence(),
    notes: [...ctx.notes],
  };
}
