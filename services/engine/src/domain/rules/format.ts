/** Small text helpers for drafting: numbers without float noise, lists in prose, clamping. */

/** 3 significant digits, no exponent for lab-range numbers, no trailing zeros. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const rounded = Number(value.toPrecision(3));
  if (rounded !== 0 && (Math.abs(rounded) >= 1e6 || Math.abs(rounded) < 1e-4))
    return rounded.toExponential(2);
  return String(rounded);
}

/** Rounds to 3 significant digits as a number. */
export function round3(value: number): number {
  return Number(value.toPrecision(3));
}

export function quantity(value: number, unit: string): string {
  return unit === "%" ? `${num(value)}%` : `${num(value)} ${unit}`;
}

/** "a", "a and b", "a, b and c". */
export function prose(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Cuts text to `max` characters at a word boundary, marking the cut with an ellipsis. */
export function clampText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
