/**
 * Experiments with results on the real services, made through the public API only: the
 * shared requester posts, the shared lab claims, starts, reports an issue and submits.
 */
import { validRequests } from "@petri/fixtures";
import { expect } from "vitest";
import { marketplaceHelpers } from "./real-marketplace.js";
import type { SharedScope } from "./real-services-shared.js";
import { SUBMISSION } from "./lab-submission.js";
import { bodyOf } from "./requests.js";

export function resultsHelpers(scope: SharedScope) {
  const { call, lab } = scope;
  const { claim } = marketplaceHelpers(scope);
  const asLab = (method: string, path: string, body?: unknown) => call(method, path, body, lab().apiKey);

  /** An experiment of the shared account the shared lab claimed and started: its create answer. */
  async function started(): Promise<{ experiment_id: string; estimated_cost_usd: number }> {
    const posted = await call("POST", "/experiments", validRequests.MIC_MBC_ASSAY);
    expect(posted.status).toBe(201);
    const created = await bodyOf(posted);
    expect((await claim(lab().apiKey, created.experiment_id)).status).toBe(200);
    expect((await asLab("POST", `/operator/jobs/${created.experiment_id}/start`)).status).toBe(200);
    return created;
  }

  /** A started experiment with a low-severity issue and `submission` submitted (pending_approval). */
  async function submitted(submission: object = SUBMISSION) {
    const created = await started();
    const id = created.experiment_id;
    const issue = await asLab("POST", `/operator/jobs/${id}/issues`, {
      description: "one well dried out",
      severity: "low",
    });
    expect(issue.status).toBe(201);
    const answer = await asLab("POST", `/operator/jobs/${id}/submit`, submission);
    expect(answer.status, await answer.clone().text()).toBe(200);
    return created;
  }

  /** The signed URL of the experiment's first raw data file, as its requester reads it. */
  async function fileUrl(experimentId: string): Promise<string> {
    const results = await bodyOf(await call("GET", `/experiments/${experimentId}/results`));
    return results.raw_data_files[0].url as string;
  }

  return { asLab, started, submitted, fileUrl };
}
