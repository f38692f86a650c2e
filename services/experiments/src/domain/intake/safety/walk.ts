/**
 * Every string in a JSON value — values and object keys — with its path. Iterative and bounded:
 * nesting deeper than `maxDepth` and strings beyond `maxStrings` are not walked but reported, so
 * the validator can refuse such a body instead of leaving part of it unchecked.
 */
import { isPlainObject, type PathSegment } from "../paths.js";

export interface FoundString {
  path: PathSegment[];
  text: string;
  /** True when the string is an object key rather than a value. */
  isKey: boolean;
}

export interface WalkResult {
  strings: FoundString[];
  /** Paths at which nesting exceeded maxDepth (not walked further). */
  tooDeep: PathSegment[][];
  /** True when more than maxStrings strings were present (the rest were not collected). */
  truncated: boolean;
}

/** No request needs more nesting than this; deeper values are refused. */
export const MAX_DEPTH = 32;
export const MAX_STRINGS = 100_000;

export function walkStrings(input: unknown, maxDepth = MAX_DEPTH, maxStrings = MAX_STRINGS): WalkResult {
  const strings: FoundString[] = [];
  const tooDeep: PathSegment[][] = [];
  let truncated = false;
  const stack: Array<{ value: unknown; path: PathSegment[] }> = [{ value: input, path: [] }];
  const push = (found: FoundString) => {
    if (strings.length >= maxStrings) truncated = true;
    else strings.push(found);
  };
  while (stack.length > 0 && !truncated) {
    const { value, path } = stack.pop() as { value: unknown; path: PathSegment[] };
    if (typeof value === "string") {
      push({ path, text: value, isKey: false });
      continue;
    }
    const container = Array.isArray(value) || isPlainObject(value);
    if (!container) continue;
    if (path.length >= maxDepth) {
      if (tooDeep.length < 10) tooDeep.push(path);
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push({ value: value[i], path: [...path, i] });
    } else {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        const key = keys[i] as string;
        push({ path: [...path, key], text: key, isKey: true });
        stack.push({ value: record[key], path: [...path, key] });
      }
    }
  }
  return { strings, tooDeep, truncated };
}

/** The strings of `input` (see walkStrings). */
export function collectStrings(input: unknown): FoundString[] {
  return walkStrings(input).strings;
}
