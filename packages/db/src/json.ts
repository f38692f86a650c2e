import type { JsonValue } from "./messaging-tables.js";

/**
 * JSON text for a jsonb parameter. Use it (or JSON.stringify) for every jsonb write: pg sends
 * a JavaScript array parameter as a PostgreSQL array literal ('{1,2}'), which is not JSON,
 * while PGlite would send JSON; text is stored identically by both.
 */
export function jsonb(value: JsonValue): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError("value is not representable as JSON");
  return text;
}
