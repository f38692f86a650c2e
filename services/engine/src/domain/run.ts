/**
 * An engine run (docs/api.md "Engine run", "Engine run status"). Pure: no I/O, no clock.
 *
 * States and transitions:
 *   PENDING  -> RUNNING     a worker leases it (attempts + 1)
 *   RUNNING  -> COMPLETED   the pipeline returned a result
 *   RUNNING  -> FAILED      a provider failed, the run exceeded its time limit, or the input
 *                           cannot be served (e.g. literature_review without a literature provider)
 *   RUNNING  -> PENDING     its worker vanished (lease expired) and attempts remain: it starts
 *                           over (the pipeline is idempotent: it only reads and computes)
 *   RUNNING  -> FAILED      its worker vanished and no attempt remains ("interrupted")
 * COMPLETED and FAILED are final. The owner may edit the drafted hypothesis of a COMPLETED run.
 */
import { type FieldError, InvalidStateError, ValidationError } from "@petri/service-kit";
import { EXPERIMENT_TYPES, type ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { JobType } from "./generation.js";

export const RUN_STATUSES = ["PENDING", "RUNNING", "COMPLETED", "FAILED"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const ACTIVE_STATUSES = ["PENDING", "RUNNING"] as const satisfies readonly RunStatus[];
export const JOB_TYPES = ["hypothesis_generation", "literature_review"] as const satisfies readonly JobType[];

export const QUERY_MAX_LENGTH = 4_000;
export const CONTEXT_MAX_LENGTH = 8_000;
export const DRAFT_TEXT_MAX_LENGTH = 5_000;

export interface RunInput {
  query: string;
  context: string;
  jobType: JobType;
  experimentType: ExperimentTypeName | null;
}

const length = (text: string) => [...text].length;

/** The start (or synchronous generate) request, validated; a ValidationError names every problem. */
export function runInput(raw: {
  query: string;
  context: string;
  jobType: string;
  experimentType: string;
}): RunInput {
  const problems: FieldError[] = [];
  const query = raw.query.normalize("NFC").trim();
  if (query === "") problems.push({ field: "query", code: "missing_required", message: "query is required" });
  else if (length(query) > QUERY_MAX_LENGTH)
    problems.push({
      field: "query",
      code: "invalid_value",
      message: `query must be at most ${QUERY_MAX_LENGTH} characters`,
    });
  const context = raw.context.normalize("NFC").trim();
  if (length(context) > CONTEXT_MAX_LENGTH)
    problems.push({
      field: "context",
      code: "invalid_value",
      message: `context must be at most ${CONTEXT_MAX_LENGTH} characters`,
    });
  const jobTypeText = raw.jobType.trim() || "hypothesis_generation";
  const jobType = JOB_TYPES.find((known) => known === jobTypeText);
  if (!jobType)
    problems.push({
      field: "job_type",
      code: "invalid_value",
      message: `job_type must be one of ${JOB_TYPES.join(", ")}`,
    });
  const typeText = raw.experimentType.trim();
  const experimentType =
    typeText === "" ? null : (EXPERIMENT_TYPES.find((known) => known === typeText) ?? null);
  if (typeText !== "" && experimentType === null)
    problems.push({
      field: "experiment_type",
      code: "invalid_value",
      message: `experiment_type must be one of ${EXPERIMENT_TYPES.join(", ")}`,
    });
  if (problems.length > 0) throw new ValidationError("the engine request is invalid", problems);
  return { query, context, jobType: jobType!, experimentType };
}

export interface EditedHypothesis {
  statement: string;
  null_hypothesis: string;
}

/** PATCH .../draft: both texts required and bounded; only a COMPLETED run has a draft to edit. */
export function editedHypothesis(
  status: RunStatus,
  raw: { statement: string; nullHypothesis: string },
): EditedHypothesis {
  const problems: FieldError[] = [];
  const check = (field: string, value: string) => {
    const text = value.trim();
    if (text === "")
      problems.push({
        field: `edited_hypothesis.${field}`,
        code: "missing_required",
        message: `${field} is required`,
      });
    else if (length(text) > DRAFT_TEXT_MAX_LENGTH)
      problems.push({
        field: `edited_hypothesis.${field}`,
        code: "invalid_value",
        message: `${field} must be at most ${DRAFT_TEXT_MAX_LENGTH} characters`,
      });
    return text;
  };
  const edited = {
    statement: check("statement", raw.statement),
    null_hypothesis: check("null_hypothesis", raw.nullHypothesis),
  };
  if (problems.length > 0) throw new ValidationError("the edited hypothesis is invalid", problems);
  if (status !== "COMPLETED")
    throw new InvalidStateError(`a ${status} run has no draft to edit`, status, ["COMPLETED"]);
  if (edited.statement === edited.null_hypothesis)
    throw new ValidationError("the edited hypothesis is invalid", [
      {
        field: "edited_hypothesis.null_hypothesis",
        code: "invalid_value",
        message: "the null hypothesis must differ from the statement",
      },
    ]);
  return edited;
}
