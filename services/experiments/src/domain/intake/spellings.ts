/**
 * One field sent under several spellings: the mechanics of choosing its value. Equal values are
 * accepted (sent twice); a different value is `invalid_value` at the later place, naming the
 * earlier one.
 */
import type { RequestError } from "../contracts.js";

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

export function sameValue(a: unknown, b: unknown): boolean {
  return stableStringify(a) === stableStringify(b);
}

function describe(value: unknown): string {
  const text = stableStringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Picks the one value of a field sent under several spellings; conflicts become errors. */
export function pick<T>(
  candidates: ReadonlyArray<readonly [path: string, value: T | undefined]>,
  errors: RequestError[],
): { value?: T; path?: string } {
  let chosen: { value: T; path: string } | undefined;
  for (const [path, value] of candidates) {
    if (value === undefined) continue;
    if (!chosen) {
      chosen = { value, path };
    } else if (!sameValue(chosen.value, value)) {
      errors.push({
        path,
        code: "invalid_value",
        message: `${path} (${describe(value)}) conflicts with ${chosen.path} (${describe(chosen.value)}): they are the same field; send one, or equal values`,
      });
    }
  }
  return chosen ?? {};
}

export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
