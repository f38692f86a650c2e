import type { ZonePlan } from "../../plan.js";
import { ProtocolNotExpressibleError, ProtocolTooLargeError } from "../errors.js";
import { formatConcentration, incubatorFor, organismLabel } from "../layout.js";
import type { ProtocolBuilder } from "../protocol-builder.js";
import { hours, microliters } from "../quantities.js";
import { coveredIncubation } from "../steps.js";

/**
 * Inoculum spread per lawn. Ours: the usual spread-plate volume for a full-size agar plate. CLSI
 * M02 swabs the lawn, which no Autoprotocol op does; `spread` is the closest op we have.
 */
export const ZONE_SPREAD_VOLUME_UL = 100;
/** Ours: more disks than this on one plate and neighbouring zones run into each other. */
export const MAX_DISKS_PER_LAWN = 12;

/**
 * Disk diffusion, expressed with what Autoprotocol has: a lab-poured agar plate (an existing
 * container: an empty new plate cannot hold agar), the inoculum spread on it, incubation, and a
 * top image from which the lab measures zone diameters. Placing the disks has no op: the lab
 * places them, as listed in outs and the notes, between the spread and the incubation. One lawn
 * (one organism, one biological replicate) per protocol; technical replicates are replicate disks
 * on that lawn.
 */
export function buildZoneProtocol(plan: ZonePlan, builder: ProtocolBuilder): void {
  const where = incubatorFor(plan.temperature_c, "temperature_c");
  requireExpressible(plan);
  const lawns = plan.organisms.length * plan.replicates.biological;
  if (lawns > 1) {
    throw new ProtocolTooLargeError(
      plan.organisms.length > 1 ? "organisms" : "replicates.biological",
      lawns,
      1,
      "agar lawns (organisms x biological replicates)",
      "Autoprotocol incubates one container per instruction, so each lawn needs its own request",
    );
  }
  const disksPerReplicate = disksOnLawn(plan);
  const disks = disksPerReplicate.length * plan.replicates.technical;
  const organism = plan.organisms[0] as ZonePlan["organisms"][number];
  const plate = builder.existing("agar_plate", "discard");
  const inoculum = builder.existing("inoculum_1_b1", "discard");
  builder.push(
    {
      op: "spread",
      from: builder.well(inoculum, 0),
      to: builder.well(plate, 0),
      volume: microliters(ZONE_SPREAD_VOLUME_UL),
    },
    ...coveredIncubation(plate, where, hours(plan.incubation_hours)),
    {
      op: "image_plate",
      object: plate,
      mode: "top",
      dataref: `zones_${String(plan.incubation_hours).replace(".", "_")}h`,
    },
  );
  const diskList = disksPerReplicate
    .map((disk) => (plan.replicates.technical > 1 ? `${disk} x${plan.replicates.technical}` : disk))
    .join(", ");
  builder.label(
    plate,
    0,
    `lawn of ${organismLabel(organism)} (biological 1) on ${plan.medium}; ${disks} disks of ` +
      `${plan.disk_diameter_mm} mm: ${diskList}`,
  );
  builder.note(
    `agar_plate is a ${plan.medium} plate poured by the lab (single-well, e.g. 1-flat); inoculum_1_b1 is the ` +
      `${organismLabel(organism)} suspension for the lawn.`,
  );
  builder.note(
    `Manual step: Autoprotocol has no op for placing disks. After the spread and before the plate is ` +
      `covered, the lab places ${disks} disks of ${plan.disk_diameter_mm} mm (${diskList}).`,
  );
  builder.note(
    `The lawn is spread (${ZONE_SPREAD_VOLUME_UL} µL) rather than swabbed as in CLSI M02; zone diameters ` +
      `are measured from the image.`,
  );
}

/** Something to test on a lawn, and a loading for every agent. */
function requireExpressible(plan: ZonePlan): void {
  const problems: { field: string; message: string }[] = [];
  if (plan.organisms.length === 0) problems.push({ field: "organisms", message: "no organism to test" });
  if (plan.agents.length === 0) problems.push({ field: "agents", message: "no agent to test" });
  plan.agents.forEach((agent, a) => {
    if (agent.disk_loading_ug.length === 0) {
      problems.push({ field: `agents[${a}].disk_loading_ug`, message: `${agent.name} has no disk loading` });
    }
  });
  if (problems.length > 0) throw new ProtocolNotExpressibleError(problems);
}

/** The disks one technical replicate places, refused when the plate cannot hold them all. */
function disksOnLawn(plan: ZonePlan): string[] {
  const disksPerReplicate: string[] = plan.agents.flatMap((agent) =>
    agent.disk_loading_ug.map((loading) => `${agent.name} ${formatConcentration(loading)} µg`),
  );
  if (plan.positive_control) disksPerReplicate.push(`${plan.positive_control} (positive control)`);
  const disks = disksPerReplicate.length * plan.replicates.technical;
  if (disks > MAX_DISKS_PER_LAWN) {
    throw new ProtocolTooLargeError(
      "agents",
      disks,
      MAX_DISKS_PER_LAWN,
      "disks on one agar plate",
      "test fewer loadings or technical replicates per request",
    );
  }

  return disksPerReplicate;
}
