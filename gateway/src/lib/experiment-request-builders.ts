/**
 * Builders of the experiment request's documentation schema (experiment-request.ts): it never
 * parses anything; it is turned into JSON Schema once, for the OpenAPI document.
 */
import { z } from "@hono/zod-openapi";

export const d = z;
export const text = (description: string, max?: number, min?: number) => {
  let schema = d.string();
  if (min !== undefined) schema = schema.min(min);
  if (max !== undefined) schema = schema.max(max);
  return schema.describe(description);
};
export const flag = (description: string) => d.boolean().default(false).describe(description);
/** A section: every field optional unless named in `required`; unknown fields are invalid_value. */
export const obj = (
  shape: Record<string, z.ZodType>,
  description: string,
  required: readonly string[] = [],
) =>
  d
    .strictObject(
      Object.fromEntries(
        Object.entries(shape).map(([key, schema]) => [
          key,
          required.includes(key) ? schema : schema.optional(),
        ]),
      ),
    )
    .describe(description);
export const list = (item: z.ZodType, description: string, bounds: { min?: number; max?: number } = {}) => {
  let schema = d.array(item);
  if (bounds.min !== undefined) schema = schema.min(bounds.min);
  if (bounds.max !== undefined) schema = schema.max(bounds.max);
  return schema.describe(description);
};
export const quantity = (description: string) => obj({ value: d.number(), unit: d.string() }, description);
export const range = (description: string, extra: Record<string, z.ZodType> = {}) =>
  obj({ min: d.number(), max: d.number(), unit: d.string(), ...extra }, description);
