/** The earlier of two optional times (undefined: no time, so the other wins). */
export function earlier(a: Date | undefined, b: Date | undefined): Date | undefined {
  if (!a) return b;
  if (!b) return a;
  return a <= b ? a : b;
}
