/** Spans of text and the lists of named things read from them. */

export function overlaps(
  a: { start: number; end: number },
  spans: readonly { start: number; end: number }[],
): boolean {
  return spans.some((s) => a.start < s.end && s.start < a.end);
}

/** Adds an item unless one of the same name (any case) is already listed. */
export function pushUnique<T extends { name: string }>(list: T[], item: T): void {
  if (!list.some((existing) => existing.name.toLowerCase() === item.name.toLowerCase())) list.push(item);
}
