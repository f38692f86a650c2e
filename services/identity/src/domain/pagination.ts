import { type FieldError, ValidationError } from "@petri/service-kit";

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

export interface Page {
  limit: number;
  offset: number;
}

/**
 * limit 1..100 (0 = unset = 20, as proto3 sends an absent int32), offset >= 0. Anything
 * else is a validation error naming the field, never a silent clamp.
 */
export function parsePage(input: { limit: number; offset: number }): Page {
  const problems: FieldError[] = [];
  if (!Number.isInteger(input.limit) || input.limit < 0 || input.limit > MAX_PAGE_LIMIT)
    problems.push({ field: "limit", code: "invalid_value", message: `limit must be 1 to ${MAX_PAGE_LIMIT}` });
  if (!Number.isInteger(input.offset) || input.offset < 0)
    problems.push({ field: "offset", code: "invalid_value", message: "offset must be 0 or more" });
  if (problems.length > 0) throw new ValidationError("the page is invalid", problems);
  return { limit: input.limit === 0 ? DEFAULT_PAGE_LIMIT : input.limit, offset: input.offset };
}
