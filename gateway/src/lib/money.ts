/**
 * Money at the edge: services store and send integer cents (int64, never a float in a
 * proto); the public API speaks USD as JSON numbers with at most two decimals (docs/architecture.md
 * section 7). This is the only place the gateway converts, in both directions.
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

/** Whole dollars (at most 12 digits, so every amount stays an exact double of cents) and 0-2 decimals. */
const USD_AMOUNT = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/**
 * A USD amount from a request -> integer cents, exactly, or undefined when it is not a
 * non-negative amount with at most two decimals: 19.99 and "19.99" -> 1999n, 0.3 -> 30n,
 * 0.30000000000000004 (0.1 + 0.2 in a client) -> undefined.
 *
 * The decimal digits are read from the number's shortest round-trip text (what the client's
 * JSON said), never from `amount * 100`, which drifts (19.99 * 100 is 1998.9999999999998).
 */
export function usdToCents(amount: number | string): bigint | undefined {
  const text = typeof amount === "number" ? (Number.isFinite(amount) ? String(amount) : "") : amount.trim();
  const match = USD_AMOUNT.exec(text);
  if (!match) return undefined;
  const [, dollars = "0", cents = ""] = match;
  return BigInt(dollars) * 100n + BigInt(cents.padEnd(2, "0"));
}
