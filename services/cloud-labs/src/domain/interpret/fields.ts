/**
 * zod building blocks for reading an intake: lenient about what is absent (undefined and null
 * both mean "not stated"; unknown fields are ignored, the experiments service judges those),
 * strict about the type of what is present (a number sent as a string is a problem, not a guess).
 * Every text is trimmed, bounded by PLAN_LIMITS.text and free of control characters, because
 * names end up inside generated protocols.
 */
import { z } from "zod";

import { PLAN_LIMITS, type PlanProblem } from "../plan.js";

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

const CONTROL_MESSAGE = "must not contain control characters (line breaks, tabs...)";

/** A name the plan cannot do without: non-empty after trimming. */
export const requiredText = (max: number = PLAN_LIMITS.text) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !hasControlCharacter(value), CONTROL_MESSAGE);

/** Optional text: null, absent and "" (after trimming) all read as "not stated". */
export const optionalText = (max: number = PLAN_LIMITS.text) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => !hasControlCharacter(value), CONTROL_MESSAGE)
    .nullish()
    .transform((value) => (value ? value : undefined));

/** null reads as "not stated", like an absent field. */
export const optional = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((value) => (value === null ? undefined : value));

export const positiveNumber = () => z.number().positive();

/** Incubation and process times in hours: one minute to 30 days (input hygiene). */
export const hours = () =>
  z
    .number()
    .min(1 / 60, "must be at least one minute (1/60 hour)")
    .max(24 * 30);

/** Temperatures in °C, freezer to boiling (input hygiene). */
export const celsius = () => z.number().min(-80).max(100);

/**
 * A list capped before its items are read: a hostile list of 10,000 entries costs one length
 * check and one problem, not 10,000 item problems.
 */
export const boundedList = <T extends z.ZodType>(item: T, max: number, noun: string, min = 0) =>
  z
    .array(z.unknown())
    .min(min)
    .max(max, {
      error: (issue) =>
        `at most ${max} ${noun} are supported (got ${Array.isArray(issue.input) ? issue.input.length : "more"})`,
    })
    .pipe(z.array(item));

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
};

type RawIssue = z.core.$ZodRawIssue;

function sizeMessage(issue: RawIssue & { code: "too_small" | "too_big" }): string | undefined {
  const small = issue.code === "too_small";
  const bound = Number(small ? issue.minimum : issue.maximum);
  switch (issue.origin) {
    case "string":
      if (small) return bound <= 1 ? "must not be empty" : `must be at least ${bound} characters`;
      return `must be at most ${bound} characters`;
    case "array":
      return small ? `must list at least ${bound}` : `must list at most ${bound}`;
    case "number":
    case "int":
      if (small) return issue.inclusive ? `must be at least ${bound}` : `must be greater than ${bound}`;
      return issue.inclusive ? `must be at most ${bound}` : `must be less than ${bound}`;
    default:
      return undefined;
  }
}

/** Plain-English messages instead of zod's default wording. */
export function issueMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null) return "is required";
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
    case "too_small":
    case "too_big":
      return sizeMessage(issue);
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => String(v)).join(", ")}`;
    case "invalid_union":
      return "has an unexpected form";
    default:
      return undefined;
  }
}

/** "a.b[0].c" for ["a", "b", 0, "c"]. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** Parses `input` with `schema`; on failure returns the problems, paths prefixed by `at`. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  input: unknown,
  at: readonly PropertyKey[] = [],
): { data: z.output<T> } | { problems: PlanProblem[] } {
  const result = schema.safeParse(input, { error: issueMessage });
  if (result.success) return { data: result.data };
  return {
    problems: result.error.issues.map((issue) => ({
      field: formatPath([...at, ...issue.path]) || "intake",
      message: issue.message,
    })),
  };
}
