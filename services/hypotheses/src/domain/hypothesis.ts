/**
 * A hypothesis of an account's library (docs/api.md "Hypothesis (library)", "Hypothesis status").
 * Pure: no I/O, no clock.
 *
 * - A new hypothesis is DRAFT with experiments_count 0. title (1..200 characters) and
 *   statement (1..5,000) are required; null_hypothesis, experiment_type (one of the eight),
 *   intake_draft (a JSON object up to 64 KiB) and the engine metadata are optional.
 * - PATCH changes only the supplied fields, and only in DRAFT; its status may only be
 *   ARCHIVED. An empty patch (or one that changes nothing) of a DRAFT is no change at all.
 * - DELETE archives from any status; an archived hypothesis stays archived (idempotent).
 * - USED: an experiment was created from it (domain/to-experiment.ts); every linked experiment
 *   counts once in experiments_count.
 */
import {
  type FieldError,
  InvalidStateError,
  JsonSyntaxError,
  ValidationError,
  parseSafeJson,
} from "@petri/service-kit";
import { EXPERIMENT_TYPES, type ExperimentTypeName } from "@petri/contracts/vocabulary";

export const HYPOTHESIS_STATUSES = ["DRAFT", "USED", "ARCHIVED"] as const;
export type HypothesisStatus = (typeof HYPOTHESIS_STATUSES)[number];

export const TITLE_MAX_LENGTH = 200;
export const STATEMENT_MAX_LENGTH = 5_000;
export const NULL_HYPOTHESIS_MAX_LENGTH = 5_000;
export const ENGINE_AGENT_MAX_LENGTH = 100;
export const ENGINE_QUERY_MAX_LENGTH = 5_000;
/** A partial experiment request is a few KiB; 64 KiB leaves room for long protocols. */
export const INTAKE_DRAFT_MAX_BYTES = 64 * 1024;
/** An engine response carries the reasoning trace and sources, so it may be larger. */
export const ENGINE_RESPONSE_MAX_BYTES = 256 * 1024;

/** PATCH is accepted only from these statuses. */
export const EDITABLE_FROM = ["DRAFT"] as const satisfies readonly HypothesisStatus[];
/** The only status a PATCH may set. */
export const PATCHABLE_STATUSES = ["ARCHIVED"] as const satisfies readonly HypothesisStatus[];

export type JsonObject = Record<string, unknown>;

export interface Hypothesis {
  id: string;
  ownerAccountId: string;
  title: string;
  statement: string;
  nullHypothesis: string | null;
  experimentType: ExperimentTypeName | null;
  status: HypothesisStatus;
  intakeDraft: JsonObject | null;
  experimentsCount: number;
  engineAgent: string | null;
  engineQuery: string | null;
  engineResponse: JsonObject | null;
  /** Derived from a submitted experiment: its id; null otherwise. */
  sourceExperimentId: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The request as the RPC carries it: absent optional text is "". */
export interface NewHypothesisInput {
  title: string;
  statement: string;
  nullHypothesis: string;
  experimentType: string;
  intakeDraftJson: string;
  engineAgent: string;
  engineQuery: string;
  engineResponseJson: string;
}

/** What the caller chose; id, owner, status, counts and times are the use case's. */
export type HypothesisContent = Pick<
  Hypothesis,
  | "title"
  | "statement"
  | "nullHypothesis"
  | "experimentType"
  | "intakeDraft"
  | "engineAgent"
  | "engineQuery"
  | "engineResponse"
>;

export interface HypothesisPatch {
  title?: string | undefined;
  statement?: string | undefined;
  status?: string | undefined;
}

export type HypothesisChanges = Partial<Pick<Hypothesis, "title" | "statement" | "status">>;

const length = (text: string) => [...text].length;

function tooLong(field: string, max: number): FieldError {
  return { field, code: "invalid_value", message: `${field} must be at most ${max} characters` };
}

function required(field: string, value: string, max: number, problems: FieldError[]): string {
  const text = value.trim();
  if (text === "") problems.push({ field, code: "missing_required", message: `${field} is required` });
  else if (length(text) > max) problems.push(tooLong(field, max));
  return text;
}

/** Trimmed text, or null when empty. */
function optional(field: string, value: string, max: number, problems: FieldError[]): string | null {
  const text = value.trim();
  if (length(text) > max) problems.push(tooLong(field, max));
  return text === "" ? null : text;
}

/** A JSON object given as text (null when empty), at most maxBytes of UTF-8. */
function jsonObject(
  field: string,
  text: string,
  maxBytes: number,
  problems: FieldError[],
): JsonObject | null {
  if (text.trim() === "") return null;
  if (Buffer.byteLength(text, "utf8") > maxBytes) {
    problems.push({ field, code: "invalid_value", message: `${field} must be at most ${maxBytes} bytes` });
    return null;
  }
  let parsed: unknown;
  try {
    parsed = parseSafeJson(field, text);
  } catch (error) {
    // Too deep or carrying text PostgreSQL refuses: those reasons; a syntax error is "not an object".
    if (!(error instanceof ValidationError)) throw error;
    if (!(error instanceof JsonSyntaxError)) {
      problems.push(...error.fieldErrors);
      return null;
    }
  }
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as JsonObject;
  problems.push({ field, code: "invalid_value", message: `${field} must be a JSON object` });
  return null;
}

/** One of the eight experiment types, or null when empty. */
export function experimentTypeOf(
  field: string,
  value: string,
  problems: FieldError[],
): ExperimentTypeName | null {
  const text = value.trim();
  if (text === "") return null;
  const type = EXPERIMENT_TYPES.find((known) => known === text);
  if (!type)
    problems.push({
      field,
      code: "invalid_value",
      message: `${field} must be one of ${EXPERIMENT_TYPES.join(", ")}`,
    });
  return type ?? null;
}

/** The content of a new hypothesis, or a ValidationError naming every problem. */
export function newHypothesisContent(input: NewHypothesisInput): HypothesisContent {
  const problems: FieldError[] = [];
  const content: HypothesisContent = {
    title: required("title", input.title, TITLE_MAX_LENGTH, problems),
    statement: required("statement", input.statement, STATEMENT_MAX_LENGTH, problems),
    nullHypothesis: optional("null_hypothesis", input.nullHypothesis, NULL_HYPOTHESIS_MAX_LENGTH, problems),
    experimentType: experimentTypeOf("experiment_type", input.experimentType, problems),
    intakeDraft: jsonObject("intake_draft", input.intakeDraftJson, INTAKE_DRAFT_MAX_BYTES, problems),
    engineAgent: optional("engine_agent", input.engineAgent, ENGINE_AGENT_MAX_LENGTH, problems),
    engineQuery: optional("engine_query", input.engineQuery, ENGINE_QUERY_MAX_LENGTH, problems),
    engineResponse: jsonObject(
      "engine_response",
      input.engineResponseJson,
      ENGINE_RESPONSE_MAX_BYTES,
      problems,
    ),
  };
  if (problems.length > 0) throw new ValidationError("the hypothesis is invalid", problems);
  return content;
}

/**
 * What a PATCH changes: only the supplied fields, and only those that differ (an empty patch
 * is {}). Validation comes first (a bad body is 422 whatever the status), then the status
 * rule: every PATCH outside DRAFT is 409 invalid_state, an empty one too, so the answer to a
 * PATCH never depends on which fields happened to be sent.
 */
export function patchChanges(
  current: Pick<Hypothesis, "title" | "statement" | "status">,
  patch: HypothesisPatch,
) {
  const problems: FieldError[] = [];
  const changes: HypothesisChanges = {};
  if (patch.title !== undefined) changes.title = required("title", patch.title, TITLE_MAX_LENGTH, problems);
  if (patch.statement !== undefined)
    changes.statement = required("statement", patch.statement, STATEMENT_MAX_LENGTH, problems);
  if (patch.status !== undefined) {
    const status = PATCHABLE_STATUSES.find((allowed) => allowed === patch.status?.trim());
    if (status) changes.status = status;
    else
      problems.push({
        field: "status",
        code: "invalid_value",
        message: `status may only be set to ${PATCHABLE_STATUSES.join(", ")}`,
      });
  }
  if (problems.length > 0) throw new ValidationError("the change is invalid", problems);
  if (!(EDITABLE_FROM as readonly string[]).includes(current.status))
    throw new InvalidStateError(
      `a ${current.status} hypothesis cannot be changed`,
      current.status,
      EDITABLE_FROM,
    );
  const effective: HypothesisChanges = {};
  if (changes.title !== undefined && changes.title !== current.title) effective.title = changes.title;
  if (changes.statement !== undefined && changes.statement !== current.statement)
    effective.statement = changes.statement;
  if (changes.status !== undefined && changes.status !== current.status) effective.status = changes.status;
  return effective;
}

/** The soft delete: ARCHIVED from any status; nothing to change when it already is. */
export function archiveChanges(current: Pick<Hypothesis, "status">): HypothesisChanges {
  return current.status === "ARCHIVED" ? {} : { status: "ARCHIVED" };
}

export function hasChanges(changes: HypothesisChanges): boolean {
  return Object.keys(changes).length > 0;
}
