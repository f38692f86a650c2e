/**
 * When results can be read. docs/api.md says "only when status is completed or disputed"; Petri
 * also shows them from pending_approval (the requester must see them before approving or
 * disputing) and after a dispute is resolved (a documented deviation). Before results are
 * submitted there is nothing to read: 409 invalid_state.
 */
import { InvalidStateError } from "@petri/service-kit";
import type { ExperimentStatusName } from "@petri/contracts/vocabulary";

export const RESULTS_READABLE_FROM = [
  "pending_approval",
  "completed",
  "disputed",
  "resolved",
] as const satisfies readonly ExperimentStatusName[];

export function assertResultsReadable(status: ExperimentStatusName): void {
  if (!(RESULTS_READABLE_FROM as readonly ExperimentStatusName[]).includes(status))
    throw new InvalidStateError(
      `results are not available for an experiment in status ${status}`,
      status,
      RESULTS_READABLE_FROM,
    );
}
