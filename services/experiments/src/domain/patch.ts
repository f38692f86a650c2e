/**
 * PATCH /experiments/{id}: which fields may change (constraints, communication preferences
 * and turnaround, docs/api.md) and how a patch merges into the request as sent (JSON Merge
 * Patch, RFC 7396: objects merge key by key, null removes a key, anything else replaces).
 */
import { type FieldError, ValidationError } from "@petri/service-kit";
import type { JsonObject } from "./lifecycle/protocol-design.js";

export const PATCHABLE_FIELDS = [
  "constraints",
  "turnaround_budget",
  "turnaround_days",
  "turnaround_priority",
  "communication_preferences",
] as const;

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The patch as an object holding only patchable fields, or a ValidationError naming each other field. */
export function parsePatch(value: unknown): JsonObject {
  if (!isJsonObject(value))
    throw new ValidationError("the patch must be a JSON object", [
      { field: "", code: "invalid_value", message: "the body must be a JSON object" },
    ]);
  const problems: FieldError[] = Object.keys(value)
    .filter((key) => !(PATCHABLE_FIELDS as readonly string[]).includes(key))
    .map((key) => ({
      field: key,
      code: "invalid_value",
      message: `${key} cannot be changed; a PATCH may change ${PATCHABLE_FIELDS.join(", ")}`,
    }));
  if (problems.length > 0) throw new ValidationError("the patch changes fields that cannot change", problems);
  return value;
}

/** RFC 7396 JSON Merge Patch of `patch` onto `target` (neither is modified). */
export function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  const result: JsonObject = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else if (isJsonObject(value)) {
      const current = result[key];
      result[key] = mergePatch(isJsonObject(current) ? current : {}, value);
    } else result[key] = value;
  }
  return result;
}

/**
 * The spellings of each turnaround/budget setting (domain/intake accepts all and stores the
 * first in turnaround_budget). A patch that sets a setting under any spelling replaces it.
 */
const SETTING_SPELLINGS: ReadonlyArray<readonly string[]> = [
  ["turnaround_budget.budget_max_usd", "constraints.budget_max_usd"],
  ["turnaround_budget.budget_flexibility", "constraints.budget_flexibility"],
  [
    "turnaround_budget.desired_turnaround_days",
    "turnaround_budget.max_days",
    "turnaround_days",
    "constraints.turnaround_days",
  ],
  ["turnaround_budget.priority", "turnaround_priority", "constraints.turnaround_priority"],
  ["turnaround_budget.hard_deadline"],
];

function has(object: JsonObject, path: string): boolean {
  const [head, tail] = path.split(".") as [string, string | undefined];
  if (!Object.prototype.hasOwnProperty.call(object, head)) return false;
  if (tail === undefined) return true;
  const inner = object[head];
  return isJsonObject(inner) && Object.prototype.hasOwnProperty.call(inner, tail);
}

function without(object: JsonObject, path: string): JsonObject {
  const [head, tail] = path.split(".") as [string, string | undefined];
  if (!Object.prototype.hasOwnProperty.call(object, head)) return object;
  const copy = { ...object };
  if (tail === undefined) {
    delete copy[head];
    return copy;
  }
  const inner = copy[head];
  if (!isJsonObject(inner)) return copy;
  const rest = { ...inner };
  delete rest[tail];
  copy[head] = rest;
  return copy;
}

/**
 * Applies a parsed patch to a stored (normalised) request: every setting the patch names,
 * under any spelling, first loses its stored value (so the two spellings cannot conflict),
 * then the patch merges in (RFC 7396). Validating the result normalises it again.
 */
export function applyPatch(stored: JsonObject, patch: JsonObject): JsonObject {
  let base = stored;
  for (const spellings of SETTING_SPELLINGS) {
    if (spellings.some((path) => has(patch, path))) {
      for (const path of spellings) base = without(base, path);
    }
  }
  return mergePatch(base, patch);
}
