import type { CustomTypesConfig } from "pg";
import { types } from "pg";

/**
 * Result types are aligned on both engines (pg and PGlite), so the same query yields the
 * same JavaScript values:
 *
 * | PostgreSQL type          | JavaScript                                              |
 * | ------------------------ | ------------------------------------------------------- |
 * | int2, int4, int8, count  | number (int8 outside +-MAX_SAFE_INTEGER throws)          |
 * | numeric                  | string (exact; never a lossy float)                     |
 * | timestamptz, timestamp   | Date                                                    |
 * | date                     | string "YYYY-MM-DD" (a calendar day is not an instant)  |
 * | interval                 | string as PostgreSQL prints it                          |
 * | json, jsonb              | parsed value                                            |
 * | bytea                    | Uint8Array (pg returns a Buffer, which is one)          |
 * | arrays of the above      | arrays of the same element values                       |
 *
 * Parameters: pass jsonb values as `JSON.stringify(value)` (see `jsonb()`), because pg
 * turns a JavaScript array parameter into a PostgreSQL array literal.
 */
export const Oid = {
  BYTEA: 17,
  INT8: 20,
  TEXT_ARRAY: 1009,
  INT8_ARRAY: 1016,
  DATE: 1082,
  DATE_ARRAY: 1182,
  INTERVAL: 1186,
  INTERVAL_ARRAY: 1187,
  NUMERIC: 1700,
  NUMERIC_ARRAY: 1231,
} as const;

/** Thrown when an int8 value cannot be represented exactly as a JavaScript number. */
export class UnsafeIntegerError extends RangeError {
  constructor(readonly text: string) {
    super(
      `int8 value ${text} is outside Number.MAX_SAFE_INTEGER (+-${Number.MAX_SAFE_INTEGER}); ` +
        `select it as text (e.g. "col::text") to read it exactly`,
    );
    this.name = "UnsafeIntegerError";
  }
}

/** Parses PostgreSQL's text form of an int8 into a number, refusing precision loss. */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new UnsafeIntegerError(text);
  return value;
}

const identity = (text: string): string => text;

type TypeId = Parameters<typeof types.getTypeParser>[0];

type Nested<T> = T | null | Nested<T>[];

function mapNested<A, B>(value: Nested<A>, fn: (a: A) => B): Nested<B> {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((item) => mapNested(item, fn));
  return fn(value);
}

/** pg-types' text[] parser: elements as strings (null stays null), nested arrays kept. */
const parseTextArray = types.getTypeParser(Oid.TEXT_ARRAY as TypeId, "text") as (
  text: string,
) => Nested<string>;

/**
 * Per-pool type parsers for `pg` (the Pool's `types` option), leaving pg's process-wide
 * defaults alone. Kysely uses the text protocol, so only text-format overrides matter.
 */
export const pgTypeParsers: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (format === "binary") return types.getTypeParser(oid, format);
    switch (oid) {
      case Oid.INT8:
        return parseInt8;
      case Oid.INT8_ARRAY:
        return (text: string) => mapNested(parseTextArray(text), parseInt8);
      case Oid.DATE:
      case Oid.INTERVAL:
        return identity;
      // pg parses numeric[] to floats and date[] to local-midnight Dates; keep strings.
      case Oid.NUMERIC_ARRAY:
      case Oid.DATE_ARRAY:
      case Oid.INTERVAL_ARRAY:
        return parseTextArray;
      default:
        return types.getTypeParser(oid, format);
    }
  }) as CustomTypesConfig["getTypeParser"],
};

/**
 * PGlite parser overrides. PGlite builds its array parsers from the element parsers, so
 * int8[] and date[] follow. Its defaults already give numeric and interval as strings,
 * bytea as Uint8Array, json/jsonb parsed and timestamps as Date.
 */
export const pgliteTypeParsers: Record<number, (text: string) => unknown> = {
  [Oid.INT8]: parseInt8,
  [Oid.DATE]: identity,
};
