/** Small documentation shapes the route schemas share. */
import { z } from "@hono/zod-openapi";

/** An RFC 3339 date-time string, as every answer writes times. */
export const dateTime = (description?: string) =>
  z.string().openapi({ format: "date-time", ...(description && { description }) });
