import { ExperimentStatus } from "./gen/petri/experiments/v1/experiment_pb.js";
import type { ExperimentSubmitted } from "./gen/petri/experiments/v1/events_pb.js";

/**
 * True when the experiments service recorded ExperimentOpened in the same change as this
 * submission, carrying the same experiment at the same version (events.proto): a consumer that
 * projects only the experiment can acknowledge the submission and apply the Opened.
 */
export function openedInSameChange(event: ExperimentSubmitted): boolean {
  return event.experiment?.status === ExperimentStatus.OPEN;
}
