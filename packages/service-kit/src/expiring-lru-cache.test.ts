import { describe, expect, it } from "vitest";
import { ExpiringLruCache } from "./expiring-lru-cache.js";

describe("ExpiringLruCache", () => {
  it("returns what was stored for the exact token until its expiry, never at or after it", () => {
    const cache = new ExpiringLruCache<string>(10);
    cache.set("token-a", "principal a", 2_000, 1_000);
    expect(cache.get("token-a", 1_000)).toBe("principal a");
    expect(cache.get("token-a", 1_999)).toBe("principal a");
    expect(cache.get("token-A", 1_500)).toBeUndefined();
    expect(cache.get("token-a", 2_000)).toBeUndefined();
    expect(cache.size).toBe(0); // the expired entry is gone
  });

  it("stores nothing for a token already expired", () => {
    const cache = new ExpiringLruCache<string>(10);
    cache.set("late", "x", 1_000, 1_000);
    expect(cache.get("late", 999)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps at most maxEntries, dropping the least recently used first", () => {
    const cache = new ExpiringLruCache<number>(2);
    cache.set("a", 1, 10_000, 0);
    cache.set("b", 2, 10_000, 0);
    expect(cache.get("a", 1)).toBe(1); // a is now the most recently used
    cache.set("c", 3, 10_000, 2);
    expect(cache.size).toBe(2);
    expect(cache.get("b", 3)).toBeUndefined();
    expect(cache.get("a", 3)).toBe(1);
    expect(cache.get("c", 3)).toBe(3);
  });

  it("refuses a bound that is not a positive integer", () => {
    expect(() => new ExpiringLruCache(0)).toThrow(/positive integer/);
  });
});
