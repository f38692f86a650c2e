/**
 * Disk diffusion (reference notes 7.1, CLSI M02): one agar plate per organism x biological x
 * technical replicate x agent, holding that agent's disks and, when the plan names one, a
 * reference disk. The notes list no SLL unit operation that swabs a lawn, places disks or
 * measures zones, so those are comments and notes for the lab; what SLL expresses is the
 * materials, the plates and the incubation.
 */
import type { ZonePlan } from "../../plan.js";
import { plateModel } from "../catalog.js";
import type { SllProtocolBody } from "../types.js";
import { celsius, hours, organismName, plain, requireSome, StepList } from "./common.js";

export function zoneProtocol(plan: ZonePlan): SllProtocolBody {
  requireSome(plan.organisms.length, "organisms");
  requireSome(plan.agents.length, "agents");
  plan.agents.forEach((a, i) => requireSome(a.disk_loading_ug.length, `agents[${i}].disk_loading_ug`));
  const list = new StepList();
  const plates: string[] = [];
  const { technical, biological } = plan.replicates;
  plan.organisms.forEach((_, o) => {
    for (let b = 1; b <= biological; b++) {
      plan.agents.forEach((agent, a) => {
        for (let t = 1; t <= technical; t++) {
          const label = `agar plate ${plates.length + 1}`;
          plates.push(label);
          list.add(
            "LabelContainer",
            { Label: label, Container: plateModel("agar-plate") },
            `organism ${o + 1}, culture ${b}, agent ${a + 1}, replicate ${t}: disks of ${agent.disk_loading_ug.map(plain).join(", ")} ug${
              plan.positive_control === null ? "" : " and a reference disk"
            }`,
          );
        }
      });
    }
  });
  list.labelSample("agar medium", plan.medium, "poured about 4 mm deep in every plate");
  plan.organisms.forEach((organism, o) => {
    for (let b = 1; b <= biological; b++) {
      list.labelSample(
        `organism ${o + 1} inoculum ${b}`,
        organismName(organism),
        `independent culture ${b}: 0.5 McFarland suspension, swabbed as a lawn`,
      );
    }
  });
  plan.agents.forEach((agent, a) => {
    list.labelSample(
      `agent ${a + 1}`,
      agent.name,
      `disks of ${plain(plan.disk_diameter_mm)} mm loaded with ${agent.disk_loading_ug.map(plain).join(", ")} ug`,
    );
  });
  if (plan.positive_control !== null) {
    list.labelSample(
      "reference agent",
      plan.positive_control,
      "reference disk (positive control) on every plate",
    );
  }
  list.add(
    "IncubateCells",
    { Sample: plates, Temperature: celsius(plan.temperature_c), Time: hours(plan.incubation_hours) },
    "before this step the lab swabs each lawn and applies the disks within 15 min (no listed SLL unit operation does either)",
  );
  list.note(
    "Zones: the lab measures each inhibition zone diameter in mm; no listed SLL unit operation measures them.",
  );
  return list.finish(plan.title, "ExperimentCellPreparation");
}
