/**
 * Saving the hypothesis of a submitted experiment in the requester's library, the pure part.
 * The experiment is the service's own view of it (experiment_views, fed by the experiments events).
 *
 * - Only the requester saves it (another account's experiment is not found) and only once it
 *   was submitted (a draft is 409 invalid_state: its hypothesis is not settled yet).
 * - title: the caller's, else the experiment's; statement and null hypothesis: the request's.
 * - intake_draft: the experiment's request without its communication preferences (webhook
 *   URLs and secrets are per experiment) and without its status-like parts; left out entirely
 *   when it would exceed the intake draft bound (file uploads can make a request large).
 * - The new hypothesis is DRAFT with experiments_count 0 and names its source experiment:
 *   it is a starting point for the next experiment, not a record of the first.
 */
import { InvalidStateError, NotFoundError, ValidationError } from "@petri/service-kit";
import { EXPERIMENT_TYPES, type ExperimentTypeName } from "@petri/contracts/vocabulary";
import {
  type HypothesisContent,
  INTAKE_DRAFT_MAX_BYTES,
  type JsonObject,
  NULL_HYPOTHESIS_MAX_LENGTH,
  STATEMENT_MAX_LENGTH,
  TITLE_MAX_LENGTH,
} from "./hypothesis.js";

export interface SubmittedExperiment {
  id: string;
  requesterAccountId: string;
  /** The public status name, e.g. "draft", "open". */
  status: string;
  title: string;
  experimentType: string;
  requestJson: string;
}

/** Parts of a request that belong to one experiment, not to the hypothesis it tests. */
const PER_EXPERIMENT_KEYS = ["communication_preferences"];

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const clip = (text: string, max: number) => [...text].slice(0, max).join("");

export function hypothesisFromExperiment(
  requesterAccountId: string,
  experiment: SubmittedExperiment,
  title: string,
): HypothesisContent & { sourceExperimentId: string } {
  if (experiment.requesterAccountId !== requesterAccountId)
    throw new NotFoundError("experiment", experiment.id);
  if (experiment.status === "draft")
    throw new InvalidStateError("a draft experiment has no submitted hypothesis yet", "draft", [
      "submitted (any status after draft)",
    ]);
  let request: unknown;
  try {
    request = JSON.parse(experiment.requestJson);
  } catch {
    request = undefined;
  }
  if (!isObject(request))
    throw new Error(`experiment ${experiment.id} has a request that is not a JSON object`);
  const stated = isObject(request.hypothesis) ? request.hypothesis : {};
  const statement = typeof stated.statement === "string" ? stated.statement.trim() : "";
  const nullHypothesis = typeof stated.null_hypothesis === "string" ? stated.null_hypothesis.trim() : "";
  if (statement === "")
    throw new ValidationError("the experiment states no hypothesis", [
      {
        field: "experiment_id",
        code: "invalid_value",
        message: "the experiment's request has no hypothesis statement",
      },
    ]);
  const chosenTitle = title.trim() || experiment.title.trim() || statement;
  if ([...title.trim()].length > TITLE_MAX_LENGTH)
    throw new ValidationError("the hypothesis is invalid", [
      {
        field: "title",
        code: "invalid_value",
        message: `title must be at most ${TITLE_MAX_LENGTH} characters`,
      },
    ]);
  const draft: JsonObject = Object.fromEntries(
    Object.entries(request).filter(([key]) => !PER_EXPERIMENT_KEYS.includes(key)),
  );
  const fits = Buffer.byteLength(JSON.stringify(draft), "utf8") <= INTAKE_DRAFT_MAX_BYTES;
  const type = EXPERIMENT_TYPES.find((known) => known === experiment.experimentType) as
    ExperimentTypeName | undefined;
  return {
    title: clip(chosenTitle, TITLE_MAX_LENGTH),
    statement: clip(statement, STATEMENT_MAX_LENGTH),
    nullHypothesis: nullHypothesis === "" ? null : clip(nullHypothesis, NULL_HYPOTHESIS_MAX_LENGTH),
    experimentType: type ?? null,
    intakeDraft: fits ? draft : null,
    engineAgent: null,
    engineQuery: null,
    engineResponse: null,
    sourceExperimentId: experiment.id,
  };
}
