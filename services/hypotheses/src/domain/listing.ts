/**
 * The filter of a library listing (docs/api.md GET /hypotheses). Pure.
 *
 * - status: one of DRAFT, USED, ARCHIVED; absent lists every status except ARCHIVED (archived
 *   hypotheses stay stored but are hidden unless asked for by name).
 * - experiment_type: one of the eight; absent for every type.
 * - search: a case-insensitive substring of the title or the statement, at most
 *   SEARCH_MAX_LENGTH characters; LIKE wildcards in it match themselves.
 */
import { type FieldError, ValidationError } from "@petri/service-kit";
import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import { HYPOTHESIS_STATUSES, type HypothesisStatus, experimentTypeOf } from "./hypothesis.js";

export const SEARCH_MAX_LENGTH = 200;

export interface HypothesisFilter {
  statuses: readonly HypothesisStatus[];
  experimentType: ExperimentTypeName | null;
  /** An ILIKE pattern (escape character "\"), or null for no search. */
  searchPattern: string | null;
}

/** The listed statuses when none is asked for. */
export const VISIBLE_STATUSES = HYPOTHESIS_STATUSES.filter((status) => status !== "ARCHIVED");

/** `text` as an ILIKE pattern matching it anywhere, its own %, _ and \ matching literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export function hypothesisFilter(input: {
  status: string;
  experimentType: string;
  search: string;
}): HypothesisFilter {
  const problems: FieldError[] = [];
  let statuses: readonly HypothesisStatus[] = VISIBLE_STATUSES;
  const status = input.status.trim();
  if (status !== "") {
    const known = HYPOTHESIS_STATUSES.find((candidate) => candidate === status);
    if (known) statuses = [known];
    else
      problems.push({
        field: "status",
        code: "invalid_value",
        message: `status must be one of ${HYPOTHESIS_STATUSES.join(", ")}`,
      });
  }
  const experimentType = experimentTypeOf("experiment_type", input.experimentType, problems);
  const search = input.search.trim();
  if ([...search].length > SEARCH_MAX_LENGTH)
    problems.push({
      field: "search",
      code: "invalid_value",
      message: `search must be at most ${SEARCH_MAX_LENGTH} characters`,
    });
  if (problems.length > 0) throw new ValidationError("the filter is invalid", problems);
  return { statuses, experimentType, searchPattern: search === "" ? null : containsPattern(search) };
}
