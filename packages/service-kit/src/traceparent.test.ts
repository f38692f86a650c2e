import { describe, expect, it } from "vitest";
import { childSpan, formatTraceparent, generateTraceparent, parseTraceparent } from "./traceparent.js";

const VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("parseTraceparent", () => {
  it("parses a version 00 header", () => {
    expect(parseTraceparent(VALID)).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      flags: 1,
    });
    expect(parseTraceparent(` ${VALID} `)?.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it.each([
    ["empty", ""],
    ["all-zero trace id", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"],
    ["all-zero span id", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"],
    ["uppercase hex", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"],
    ["short trace id", "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01"],
    ["long span id", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7a-01"],
    ["version ff", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"],
    ["version 00 with extra fields", `${VALID}-extra`],
    ["garbage", "not-a-traceparent"],
    ["missing flags", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7"],
  ])("rejects %s", (_name, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });

  it("rejects null and undefined", () => {
    expect(parseTraceparent(null)).toBeUndefined();
    expect(parseTraceparent(undefined)).toBeUndefined();
  });

  it("reads a future version by its first four fields", () => {
    expect(parseTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-more")).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      flags: 0,
    });
  });
});

describe("formatTraceparent / generateTraceparent / childSpan", () => {
  it("round-trips", () => {
    expect(formatTraceparent(parseTraceparent(VALID)!)).toBe(VALID);
    expect(formatTraceparent({ traceId: "a".repeat(32), spanId: "b".repeat(16), flags: 0 })).toBe(
      `00-${"a".repeat(32)}-${"b".repeat(16)}-00`,
    );
  });

  it("generates valid, sampled, distinct traceparents", () => {
    const a = generateTraceparent();
    const b = generateTraceparent();
    expect(a).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(parseTraceparent(a)).toBeDefined();
    expect(a).not.toBe(b);
    expect(generateTraceparent(false)).toMatch(/-00$/);
  });

  it("childSpan keeps the trace id and flags and changes the span id", () => {
    const child = childSpan(VALID);
    const parsed = parseTraceparent(child)!;
    expect(parsed.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(parsed.flags).toBe(1);
    expect(parsed.spanId).not.toBe("00f067aa0ba902b7");
    expect(child.startsWith("00-")).toBe(true);
  });

  it("childSpan of a malformed parent starts a new trace", () => {
    const child = childSpan("garbage");
    expect(parseTraceparent(child)).toBeDefined();
    expect(childSpan(undefined)).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });
});
