/**
 * CUSTOM: only what the steps state in numbers is expressed. A step with a duration or a
 * temperature becomes an Incubate of the plate; every step's action text travels as the comment
 * of the next unit operation (a trailing one becomes a note), so the lab sees each action in
 * order. A final read follows when the detection method has a listed plate-reader operation.
 */
import type { CustomPlan } from "../../plan.js";
import { plateModel, readPlateRole } from "../catalog.js";
import type { SllProtocolBody } from "../types.js";
import { addRead, celsius, minutes, StepList } from "./common.js";

export function customProtocol(plan: CustomPlan): SllProtocolBody {
  const list = new StepList();
  list.add("LabelContainer", {
    Label: "plate",
    Container: plateModel(readPlateRole(plan.plate_format, plan.detection_method)),
  });
  list.note(
    `Custom protocol: the lab carries out each action as written; ${plan.replicates.technical} technical x ${plan.replicates.biological} biological replicates.`,
  );
  plan.steps.forEach((step, i) => {
    list.comment(`step ${i + 1}: ${step.action}`);
    if (step.duration_minutes !== null || step.temperature_c !== null) {
      list.add("Incubate", {
        Sample: "plate",
        Time: step.duration_minutes === null ? undefined : minutes(step.duration_minutes),
        Temperature: step.temperature_c === null ? undefined : celsius(step.temperature_c),
      });
    }
  });
  addRead(list, plan.detection_method, "plate", { comment: "final read; settings as the steps describe" });
  return list.finish(plan.title, "ExperimentManualSamplePreparation");
}
