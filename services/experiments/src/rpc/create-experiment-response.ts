/**
 * The CreateExperiment response: built from the created experiment, stored as JSON under the
 * request's Idempotency-Key (in the transaction that creates it), and replayed from there as
 * stored, with `replayed` set.
 */
import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { type CreateExperimentResponse, CreateExperimentResponseSchema } from "@petri/contracts/experiments";
import type { JsonValue } from "@petri/db";
import type { CreateExperimentOutcome, CreatedExperiment } from "../app/create-experiment.js";
import { experimentMessage, issueMessage } from "../contract/experiment-message.js";

function createdResponse(created: CreatedExperiment): CreateExperimentResponse {
  return create(CreateExperimentResponseSchema, {
    experiment: experimentMessage(created.experiment),
    warnings: created.warnings.map(issueMessage),
    replayed: false,
  });
}

/** What a replay of this creation answers with, as the idempotency record stores it. */
export function storedCreateExperimentResponse(created: CreatedExperiment): JsonValue {
  return toJson(CreateExperimentResponseSchema, createdResponse(created)) as JsonValue;
}

export function createExperimentResponse(outcome: CreateExperimentOutcome): CreateExperimentResponse {
  if (outcome.kind === "created") return createdResponse(outcome);
  const stored = fromJson(CreateExperimentResponseSchema, outcome.storedResponse as never);
  return create(CreateExperimentResponseSchema, { ...stored, replayed: true });
}
