import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  IDEMPOTENCY_RETENTION_MS,
  IdempotencyKeyReusedError,
  idempotencyCutoff,
  idempotencyKeyProblem,
  requestHash,
} from "./idempotency.js";

function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, seed + 1));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const rotated =
    entries.length > 0
      ? [...entries.slice(seed % entries.length), ...entries.slice(0, seed % entries.length)]
      : [];
  return Object.fromEntries(rotated.reverse().map(([k, v]) => [k, shuffleKeys(v, seed + 1)]));
}

describe("idempotency request hashing", () => {
  it("ignores key order at every depth", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.boolean(), (value, seed, draft) => {
        expect(requestHash(shuffleKeys(value, seed), draft)).toBe(requestHash(value, draft));
      }),
    );
  });

  it("tells different bodies and the draft flag apart", () => {
    const body = { title: "A", constraints: { budget_max_usd: 300 } };
    const h = requestHash(body, false);
    expect(h).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(requestHash({ ...body, constraints: { budget_max_usd: 301 } }, false)).not.toBe(h);
    expect(requestHash(body, true)).not.toBe(h);
    expect(requestHash({ ...body, extra: null }, false)).not.toBe(h);
    // Equal JSON numbers are equal requests.
    expect(requestHash(JSON.parse('{"a":1.0}'), false)).toBe(requestHash({ a: 1 }, false));
  });
});

describe("idempotency keys", () => {
  it("accepts 1..255 printable ASCII characters and nothing else", () => {
    expect(idempotencyKeyProblem("a")).toBeUndefined();
    expect(idempotencyKeyProblem("0f8fad5b-d9cb-469f-a165-70867728950e")).toBeUndefined();
    expect(idempotencyKeyProblem("k".repeat(255))).toBeUndefined();
    expect(idempotencyKeyProblem("with space ~!")).toBeUndefined();
    for (const key of ["", "k".repeat(256), "tab\there", "new\nline", "é", "\u0000", "\u007f"]) {
      expect(idempotencyKeyProblem(key)).toMatchObject({ field: "idempotency_key", code: "invalid_value" });
    }
  });

  it("keeps keys for 24 hours", () => {
    expect(IDEMPOTENCY_RETENTION_MS).toBe(86_400_000);
    expect(idempotencyCutoff(new Date("2026-03-02T10:00:00.000Z")).toISOString()).toBe(
      "2026-03-01T10:00:00.000Z",
    );
  });

  it("reports a reused key as a 422 with its own code", () => {
    const error = new IdempotencyKeyReusedError();
    expect(error.kind).toBe("validation_failed");
    expect(error.code).toBe("idempotency_key_reused");
  });
});
