/**
 * The sandbox lab: a simulated cloud lab, the default adapter. It keeps no state of its own:
 * a run's status follows from the time since it was submitted, on the injected clock (queued
 * after one step, running after two, completed after three), and its results are derived from
 * the plan (domain/simulated-results.ts), labelled as simulated. Tests move the clock; a
 * deployment picks the step (PETRI_CLOUDLABS_SANDBOX_STEP_MS).
 */
import type { Clock } from "@petri/service-kit";
import { simulatedResults } from "../domain/simulated-results.js";
import type { LabAdapter, LabRunReport, SubmissionForLab } from "./lab-adapter.js";

export class SandboxLab implements LabAdapter {
  readonly name = "sandbox" as const;

  constructor(
    private readonly options: {
      clock: Clock;
      /** Time between two statuses of a simulated run. */
      stepMs: number;
      /** Where the run's raw data can be downloaded (the gateway serves it). */
      rawDataUrl(submissionId: string): string;
    },
  ) {}

  async submit(submission: SubmissionForLab): Promise<{ providerSubmissionId: string }> {
    return { providerSubmissionId: `sandbox-${submission.id}` };
  }

  async poll(submission: SubmissionForLab): Promise<LabRunReport> {
    const since = submission.submittedAt ?? this.options.clock.now();
    const steps = Math.floor((this.options.clock.now().getTime() - since.getTime()) / this.options.stepMs);
    if (steps >= 3)
      return {
        status: "completed",
        results: simulatedResults(submission.plan, this.options.rawDataUrl(submission.id)),
      };
    if (steps >= 2) return { status: "running" };
    if (steps >= 1) return { status: "queued" };
    return { status: "submitted" };
  }

  async cancel(): Promise<void> {
    // Nothing runs anywhere: the submission's own status is all there is to change.
  }
}
