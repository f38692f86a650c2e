/**
 * Money at the edge: services store and send integer cents (int64, never a float in a
 * proto); the public API speaks USD as JSON numbers with at most two decimals (DESIGN.md
 * section 7). This is the only place the gateway converts.
 */

/** Largest cent amount that converts exactly (Number.MAX_SAFE_INTEGER cents). */
const MAX_SAFE_CENTS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Integer cents -> USD number: 123456n -> 1234.56, 1050n -> 10.5, -99n -> -0.99.
 *
 * For any |cents| <= 2^53 - 1, `cents / 100` in IEEE double is the double nearest to the
 * exact decimal, and JSON.stringify prints the shortest text that reads back as that double,
 * which is the two-decimal amount itself: no 0.30000000000000004 can appear.
 */
export function centsToUsd(cents: bigint | number): number {
  const value = typeof cents === "bigint" ? cents : BigInt(cents);
  if (value > MAX_SAFE_CENTS || value < -MAX_SAFE_CENTS) {
    throw new RangeError(`amount of ${value} cents is outside the exact range`);
  }
  const usd = Number(value) / 100;
  return Object.is(usd, -0) ? 0 : usd;
}
