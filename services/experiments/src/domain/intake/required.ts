/**
 * Required fields, checked apart from zod's shape validation.
 *
 * Why: a draft may omit required fields but must not contain malformed values. The zod schemas
 * therefore accept a missing required field at run time (the schema is wrapped in `.optional()`)
 * while the TypeScript type still says "required" (so `NormalizedRequest` is typed as the full,
 * submitted form). `collectMissing` walks a schema alongside the data and lists every required
 * field that is absent; the validator turns those into `missing_required` errors (submit) or
 * warnings (draft).
 */
import { z } from "zod";

import { isPlainObject, ownValue, type PathSegment } from "./paths.js";

interface RequiredMarker {
  /** An empty array counts as missing (lists that must have at least one entry). */
  nonEmpty: boolean;
  message?: (path: readonly PathSegment[]) => string;
}

const REQUIRED = new WeakMap<object, RequiredMarker>();

/** Marks a field as required at submission. Typed as the inner schema; optional at run time. */
export function req<T extends z.ZodType>(
  schema: T,
  options: { nonEmpty?: boolean; message?: (path: readonly PathSegment[]) => string } = {},
): T {
  const optional = schema.optional();
  const marker: RequiredMarker = { nonEmpty: options.nonEmpty ?? false };
  if (options.message) marker.message = options.message;
  REQUIRED.set(optional, marker);
  return optional as unknown as T;
}

export interface MissingField {
  path: PathSegment[];
  message?: string;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (let guard = 0; guard < 16; guard += 1) {
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodNullable
    ) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
  return current;
}

/** Lists required fields absent from `data` (the body as sent, after null properties are dropped). */
export function collectMissing(
  schema: z.ZodType,
  data: unknown,
  path: PathSegment[] = [],
  out: MissingField[] = [],
): MissingField[] {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject && isPlainObject(data)) {
    const shape = inner.shape as Record<string, z.ZodType>;
    for (const [key, field] of Object.entries(shape)) {
      const value = ownValue(data, key);
      const marker = REQUIRED.get(field);
      const fieldPath = [...path, key];
      if (
        marker &&
        (value === undefined || (marker.nonEmpty && Array.isArray(value) && value.length === 0))
      ) {
        const missing: MissingField = { path: fieldPath };
        if (marker.message) missing.message = marker.message(fieldPath);
        out.push(missing);
      } else if (value !== undefined) {
        collectMissing(field, value, fieldPath, out);
      }
    }
  } else if (inner instanceof z.ZodArray && Array.isArray(data)) {
    const element = inner.element as z.ZodType;
    data.forEach((item, index) => collectMissing(element, item, [...path, index], out));
  } else if (inner instanceof z.ZodUnion) {
    // Descend into the object member when the value is an object (e.g. threshold {min, max}).
    for (const option of inner.options as readonly z.ZodType[]) {
      const candidate = unwrap(option);
      if (candidate instanceof z.ZodObject && isPlainObject(data)) {
        collectMissing(candidate, data, path, out);
        break;
      }
    }
  }
  return out;
}
