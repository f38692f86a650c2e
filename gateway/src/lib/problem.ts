import { z } from "@hono/zod-openapi";

/** The one error body of the public API: {"error":{"code","message","details"}}. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "validation_failed" }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  })
  .openapi("Error");

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export function errorBody(code: string, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, details } };
}

export const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorBodySchema } },
});
