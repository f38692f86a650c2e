/**
 * Drives experiments through the marketplace loop over RPC, for the scenarios that start
 * from a later state: open, claimed, started, results submitted.
 */
import type { Experiment } from "@petri/contracts/experiments";
import type { Principal } from "@petri/service-kit";
import { fullBody } from "./results.js";
import { type Experiments, bodies, json, requester } from "./harness.js";
import { type EligibilityOverrides, type VerifiedOperator, verifiedOperator } from "./marketplace.js";

export interface LoopExperiment {
  requester: Principal;
  operator: VerifiedOperator;
  experiment: Experiment;
}

export const CLAIM = { equipmentConfirmation: true, authorizationConfirmation: true } as const;

/** A fresh open experiment of a fresh requester. */
export async function openExperiment(
  exp: Experiments,
  body: Record<string, unknown> = bodies.open(),
  me: Principal = requester(),
): Promise<{ requester: Principal; experiment: Experiment }> {
  const { experiment } = await exp.as(me).createExperiment({ requestJson: json(body) });
  return { requester: me, experiment: experiment! };
}

/** An open experiment claimed by a fresh verified operator. */
export async function claimedExperiment(
  exp: Experiments,
  options: { body?: Record<string, unknown>; operator?: EligibilityOverrides } = {},
): Promise<LoopExperiment> {
  const opened = await openExperiment(exp, options.body);
  const operator = await verifiedOperator(exp, options.operator);
  const { experiment } = await exp
    .as(operator.principal)
    .claimExperiment({ experimentId: opened.experiment.id, ...CLAIM });
  return { requester: opened.requester, operator, experiment: experiment! };
}

/** Claimed and started (in_progress). */
export async function startedExperiment(
  exp: Experiments,
  options: { body?: Record<string, unknown> } = {},
): Promise<LoopExperiment> {
  const claimed = await claimedExperiment(exp, options);
  const { experiment } = await exp
    .as(claimed.operator.principal)
    .startExperiment({ experimentId: claimed.experiment.id });
  return { ...claimed, experiment: experiment! };
}

/** Started, with results submitted (pending_approval); `results` defaults to a full submission. */
export async function submittedExperiment(
  exp: Experiments,
  results: Record<string, unknown> = fullBody(),
  options: { body?: Record<string, unknown> } = {},
): Promise<LoopExperiment> {
  const started = await startedExperiment(exp, options);
  const { experiment } = await exp
    .as(started.operator.principal)
    .submitResults({ experimentId: started.experiment.id, resultsJson: json(results) });
  return { ...started, experiment: experiment! };
}

/** Submitted and approved by the requester (completed). */
export async function approvedExperiment(exp: Experiments): Promise<LoopExperiment> {
  const submitted = await submittedExperiment(exp);
  const { experiment } = await exp
    .as(submitted.requester)
    .approveResults({ experimentId: submitted.experiment.id, rating: 5 });
  return { ...submitted, experiment: experiment! };
}
