import { describe, expect, it } from "vitest";
import { pooledRandomBytes } from "./random-pool.js";

describe("pooledRandomBytes", () => {
  it("hands out distinct bytes of the asked length, across refills", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i += 1) {
      const bytes = pooledRandomBytes(16);
      expect(bytes).toHaveLength(16);
      seen.add(bytes.toString("hex"));
    }
    expect(seen.size).toBe(2_000);
  });

  it("refuses more than the pool holds", () => {
    expect(() => pooledRandomBytes(4097)).toThrow(RangeError);
  });
});
