/**
 * The port between submissions and a lab: send a translated protocol, ask how its run is
 * going, cancel it. Adapters: the sandbox (a simulated lab, the default) and HTTP (a real
 * provider's run API). Errors an adapter throws are LabAdapterError; anything else is a bug.
 */
import type { LabPlan } from "../domain/plan.js";
import type { SubmissionStatus } from "../domain/submission.js";

export interface SubmissionForLab {
  id: string;
  providerId: string;
  providerSubmissionId: string | null;
  protocolFormat: string;
  protocol: Record<string, unknown>;
  plan: LabPlan;
  /** When the lab accepted it (null before). */
  submittedAt: Date | null;
}

export interface LabRunReport {
  status: Exclude<SubmissionStatus, "pending">;
  /** completed: the lab's results. */
  results?: Record<string, unknown>;
  /** failed: why, in the lab's words (bounded, no secrets). */
  error?: string;
}

export interface LabAdapter {
  readonly name: "sandbox" | "http";
  submit(submission: SubmissionForLab, signal: AbortSignal): Promise<{ providerSubmissionId: string }>;
  poll(submission: SubmissionForLab, signal: AbortSignal): Promise<LabRunReport>;
  cancel(submission: SubmissionForLab, signal: AbortSignal): Promise<void>;
}

/**
 * A lab call that failed. `retryable`: the lab may answer later (timeouts, 5xx, 429); otherwise
 * it refused (the submission fails).
 */
export class LabAdapterError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "LabAdapterError";
  }
}
