import type { GrowthPlan } from "../../plan.js";
import { ProtocolNotExpressibleError } from "../errors.js";
import type { ContainerType } from "../containers.js";
import {
  type ReplicateSlot,
  WellAllocator,
  assayPlate,
  organismLabel,
  replicateSlots,
  requireWellsOnPlate,
} from "../layout.js";
import { type ProtocolBuilder, mixVolumeFor } from "../protocol-builder.js";
import { celsius, minutes } from "../quantities.js";
import { absorbanceGroup } from "../steps.js";
import type { SpectrophotometryGroup } from "../types.js";

/** Medium + inoculum per well (ours): 180 + 20 µL on 96-well plates, 45 + 5 µL on 384-well plates. */
const VOLUMES = {
  "96-well": { medium: 180, inoculum: 20 },
  "384-well": { medium: 45, inoculum: 5 },
} as const;

const TEMPERATURE_VARIABLE = /temp|°c|celsius|kelvin/i;

/**
 * Growth matrix: every condition (a lab-prepared medium) x biological x technical replicates plus
 * one blank per condition, sealed with an optical seal against evaporation and read at 600 nm in a
 * kinetic `spectrophotometry` run at the plan's temperature (shaking between reads when asked).
 */
export function buildGrowthProtocol(plan: GrowthPlan, builder: ProtocolBuilder): void {
  requireExpressible(plan);
  const plateType = assayPlate(plan.plate_format, "clear");
  const slots = replicateSlots(plan.replicates);
  requireWellsOnPlate("conditions", plan.conditions.length * (slots.length + 1), plateType);

  const plate = builder.fresh("growth_plate", plateType, "discard");
  plan.conditions.forEach((_, c) => builder.existing(`condition_${c + 1}_medium`, "discard"));
  for (let b = 1; b <= plan.replicates.biological; b += 1) builder.existing(`inoculum_b${b}`, "discard");
  const wells = placeWells(plan, builder, plate, plateType, slots);
  fillWells(plan, builder, plate, wells);
  readKinetically(plan, builder, plate, wells);
  noteGrowthContainers(plan, builder);
}

/** A well of one condition: a replicate culture, or (biological null) the condition's blank. */
interface GrowthWell {
  well: number;
  condition: number;
  biological: number | null;
}

/** Aerobic or static, at one temperature per plate, with conditions and a positive read interval. */
function requireExpressible(plan: GrowthPlan): void {
  const problems: { field: string; message: string }[] = [];
  if (plan.aeration === "anaerobic") {
    problems.push({ field: "aeration", message: "anaerobic incubation has no Autoprotocol op" });
  }
  if (plan.conditions.length === 0)
    problems.push({ field: "conditions", message: "no condition to grow in" });
  plan.conditions.forEach((condition, c) =>
    condition.settings.forEach((setting, s) => {
      if (TEMPERATURE_VARIABLE.test(setting.variable) || TEMPERATURE_VARIABLE.test(setting.unit ?? "")) {
        problems.push({
          field: `conditions[${c}].settings[${s}].variable`,
          message: "temperature cannot vary between wells of one plate",
        });
      }
    }),
  );
  if (!(plan.read_interval_minutes > 0)) {
    problems.push({ field: "read_interval_minutes", message: "the read interval must be positive" });
  }
  if (problems.length > 0) throw new ProtocolNotExpressibleError(problems);
}

/** Per condition: every replicate slot, then one blank. */
function placeWells(
  plan: GrowthPlan,
  builder: ProtocolBuilder,
  plate: string,
  plateType: ContainerType,
  slots: readonly ReplicateSlot[],
): GrowthWell[] {
  const allocator = new WellAllocator(plateType);
  const wells: GrowthWell[] = [];
  plan.conditions.forEach((condition, c) => {
    for (const slot of [...slots, null]) {
      const well = allocator.takeOne();
      wells.push({ well, condition: c, biological: slot?.biological ?? null });
      builder.label(
        plate,
        well,
        slot
          ? `${condition.label} | ${organismLabel(plan.organism)} | ${slot.label}`
          : `${condition.label} | blank (medium only)`,
      );
    }
  });

  return wells;
}

/** The condition's medium into every well (a full volume in blanks), then the inoculum. */
function fillWells(
  plan: GrowthPlan,
  builder: ProtocolBuilder,
  plate: string,
  wells: readonly GrowthWell[],
): void {
  const volumes = VOLUMES[plan.plate_format];
  for (const w of wells) {
    const volume = w.biological === null ? volumes.medium + volumes.inoculum : volumes.medium;
    builder.transfer(
      builder.well(`condition_${w.condition + 1}_medium`, 0),
      builder.well(plate, w.well),
      volume,
    );
  }
  for (const w of wells) {
    if (w.biological === null) continue;
    builder.transfer(
      builder.well(`inoculum_b${w.biological}`, 0),
      builder.well(plate, w.well),
      volumes.inoculum,
      mixVolumeFor(volumes.medium + volumes.inoculum),
    );
  }
}

/** An optical seal, then OD600 at every interval at the plan's temperature. */
function readKinetically(
  plan: GrowthPlan,
  builder: ProtocolBuilder,
  plate: string,
  wells: readonly GrowthWell[],
): void {
  const groups: SpectrophotometryGroup[] = [
    absorbanceGroup(
      builder,
      plate,
      wells.map((w) => w.well),
      600,
    ),
  ];
  if (plan.aeration === "shaking") groups.push({ mode: "shake", mode_params: {} });
  builder.push(
    { op: "seal", object: plate, type: "ultra-clear" },
    {
      op: "spectrophotometry",
      object: plate,
      dataref: "od600_kinetic",
      groups,
      interval: minutes(plan.read_interval_minutes),
      num_intervals: Math.floor((plan.duration_hours * 60) / plan.read_interval_minutes) + 1,
      temperature: celsius(plan.temperature_c),
    },
  );
}

/** What the lab must prepare in the containers the document only names. */
function noteGrowthContainers(plan: GrowthPlan, builder: ProtocolBuilder): void {
  builder.note(
    `condition_<n>_medium: ${plan.medium} made up by the lab for condition n (${plan.conditions
      .map((condition, c) => `${c + 1}: ${condition.label}`)
      .join("; ")}); inoculum_b<n>: one ${organismLabel(plan.organism)} culture per biological replicate.`,
  );
  builder.note(
    "The plate is read under an ultra-clear seal to stop evaporation over the run; the seal also limits gas " +
      "exchange, which matters for fast-growing aerobes.",
  );
}
