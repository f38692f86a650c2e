import { z } from "@hono/zod-openapi";

/** A whole number in a query string: "20" yes; "-1", "1e9", "2.5", "" no. */
export const queryInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((value) => value ?? fallback)
    .openapi({ type: "integer", minimum: min, maximum: max, default: fallback });

/** "true" or "false" in a query string (anything else is 422), `fallback` when absent. */
export const queryFlag = (fallback: boolean, description: string) =>
  z
    .enum(["true", "false"])
    .optional()
    .transform((value) => (value === undefined ? fallback : value === "true"))
    .openapi({ type: "boolean", default: fallback, description });
