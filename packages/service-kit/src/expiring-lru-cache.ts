/**
 * A map bounded twice: by size (the least recently used entry goes first, so a flood of
 * distinct keys cannot grow memory) and by time (an entry is never returned at or after the
 * expiry it was stored with).
 *
 * Its first use is what verifying a token established, remembered under the exact token
 * string until the token expires: signature checks (WebCrypto Ed25519) are most of a request's
 * authentication cost, and a client sends the same token many times. Only successful
 * verifications are stored there; checks that can change while a token lives (revocations,
 * key retirement) stay the caller's, on every hit. The gateway's account views use it too.
 */
export class ExpiringLruCache<T> {
  /** Map iteration order is insertion order: re-inserting on a hit keeps the oldest first. */
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new Error(`maxEntries must be a positive integer, got ${maxEntries}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value stored for `token`, unless absent or expired at `nowMs` (epoch ms). */
  get(token: string, nowMs: number): T | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined) return undefined;
    this.entries.delete(token);
    if (nowMs >= entry.expiresAt) return undefined;
    this.entries.set(token, entry);
    return entry.value;
  }

  /** Remembers `value` for `token` until `expiresAt` (epoch ms); nothing if that has passed. */
  set(token: string, value: T, expiresAt: number, nowMs: number): void {
    this.entries.delete(token);
    if (!(expiresAt > nowMs)) return;
    this.entries.set(token, { value, expiresAt });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
